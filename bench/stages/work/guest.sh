# shellcheck shell=sh
# Guest side of the work stage (sourced by bench/guest.sh):
#   work REPS APPROACH...   first touch, O_DIRECT from DAX, dm-writecache
# fio_dio APPROACH SIZE RW: O_DIRECT between /dev/disk-target and a buffer that
# is an mmap of the DAX file /mnt/dax/buf
fio_dio() {
	if ! fio --name=dio --filename=/dev/disk-target --rw="$3" --bs=1M --size=256M \
		--direct=1 --ioengine=psync --iomem=mmapshared:/mnt/dax/buf \
		--output-format=json > /tmp/fio.json 2>/tmp/fio.err; then
		unsup "$1" "dio_${3}_MBps" "$2" "fio: $(cat /tmp/fio.err)"
		return 1
	fi
	jq -r --arg a "$1" --arg s "$2" --arg rw "$3" '.jobs[0][$rw] |
		"R \($a) dio_\($rw)_MBps \($s) \(.bw_bytes / 1e6) MB/s",
		"R \($a) dio_\($rw)_p50_us \($s) \(.clat_ns.percentile["50.000000"] / 1000) us",
		"R \($a) dio_\($rw)_p99_us \($s) \(.clat_ns.percentile["99.000000"] / 1000) us"' /tmp/fio.json
}

# wc_clean_time: cleaner mode, seconds until everything is written back
wc_clean_time() {
	t0=$(up)
	dmsetup message wc 0 cleaner && wc_wait_clean >/dev/null || return 1
	elapsed "$t0" "$(up)"
}

# work_one APPROACH BLOCKDEV DAX: O_DIRECT from DAX (if DAX is yes) and
# dm-writecache on the fsdax namespace BLOCKDEV that first_touches left
work_one() {
	a=$1 blk=$2
	progress "$a: O_DIRECT from DAX (fio), dm-writecache"
	if [ "$3" = yes ]; then
		mount -o dax "/dev/$blk" /mnt/dax
		for _ in $(seq "$reps"); do
			fio_dio "$a" "$size" write || break
			fio_dio "$a" "$size" read || break
		done
		umount /mnt/dax
	fi
	# dm-writecache, pmem cache over the virtio-blk disk.  With
	# patches/pfn-io a raw namespace takes the pfn path, which is the
	# pfn row: raw stands for the stock kernel, which refuses it.
	if [ "$a" = raw ] && [ -e "/sys/block/$blk/queue/pfn_io" ]; then
		for m in wc_create_s wc_write_MBps wc_writeback_s; do
			echo "U $a $m $size skipped this kernel has patches/pfn-io, so a raw cache is the pfn row; stock 6.12 refuses it: Cache device is not a DAX device (-EOPNOTSUPP), see guest/tests/pfn-io.sh"
		done
		return 0
	fi
	for _ in $(seq "$reps"); do
		# a fresh superblock for every table
		dd if=/dev/zero of="/dev/$blk" bs=1M count=1 oflag=direct 2>/dev/null
		t0=$(up)
		if ! err=$(dmsetup create wc --table "$(wc_table "/dev/$blk")" 2>&1); then
			err="$err; kernel: $(dmesg | tail -n 1 | sed 's/^\[[^]]*\] //')"
			for m in wc_create_s wc_write_MBps wc_writeback_s; do
				unsup "$a" $m "$size" "dmsetup create writecache: $err"
			done
			dmsetup remove wc 2>/dev/null
			break
		fi
		rec "$a" wc_create_s "$size" "$(elapsed "$t0" "$(up)")" s
		if fio --name=wc --filename=/dev/mapper/wc --rw=write --bs=1M --size=256M \
			--direct=1 --ioengine=psync --output-format=json > /tmp/fio.json 2>/tmp/fio.err; then
			jq -r --arg a "$a" --arg s "$size" \
				'"R \($a) wc_write_MBps \($s) \(.jobs[0].write.bw_bytes / 1e6) MB/s"' /tmp/fio.json
		else
			unsup "$a" wc_write_MBps "$size" "fio: $(cat /tmp/fio.err)"
		fi
		dmsetup message wc 0 flush
		if s=$(wc_clean_time); then
			rec "$a" wc_writeback_s "$size" "$s" s
		else
			unsup "$a" wc_writeback_s "$size" "writeback did not finish: $(dmsetup status wc)"
		fi
		dmsetup remove wc
	done
}

# work REPS APPROACH...: the first touches, then per approach with an fsdax
# namespace O_DIRECT from DAX and dm-writecache
work() {
	first_touches "$@"
	for slot in $namespaces; do work_one "${slot%%=*}" "${slot#*=}" yes; done
	for slot in $nodax; do work_one "${slot%%=*}" "${slot#*=}" no; done
	pmem_reset
}

stage_guest() { work "$@"; }
