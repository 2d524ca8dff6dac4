# shellcheck shell=sh
# The __pfn_t approach (patches/pfn-io): a raw pmem namespace, which has no
# struct pages in DRAM or in pmem, is the cache of dm-writecache, whose
# writeback bios name the cache by pfn down to virtio-blk.  A queue that did
# not opt in never receives such a bio.  Without the series the table is
# refused with EOPNOTSUPP.  Whether the kernel has the series is asked of its
# symbols (there is no /proc/config.gz): a missing sysfs file of the series is
# then a failure, not a reason to test the kernel without it.

origin=$(readlink -f /dev/disk-target)
pmem_reset
cache=$(ns_create -m raw -r region0 | jq -r .blockdev)
if [ ! -b "/dev/$cache" ]; then
	not_ok "raw namespace: $(cat /tmp/ndctl.err)"
	pmem_reset
	return 0
fi
dd if=/dev/urandom of=/tmp/pfn.data bs=1M count=32 2>/dev/null

# wc_status_field N [NAME]: field N of "dmsetup status" of writecache NAME
# (field 4 is the error, 5 total blocks, 6 free, 7 under writeback)
wc_status_field() { dmsetup status "${2:-wc}" | cut -d' ' -f"$1"; }

# bio_add_pfn(): patches/pfn-io/0003, the block layer's half of the series
if ! grep -q ' bio_add_pfn$' /proc/kallsyms; then
	diag "kernel without patches/pfn-io (no bio_add_pfn in /proc/kallsyms)"
	if [ -e "/sys/block/$cache/queue/pfn_io" ]; then
		not_ok "no bio_add_pfn, but /sys/block/$cache/queue/pfn_io exists"
	fi
	expect_fail "raw cache refused (EOPNOTSUPP)" "not supported" \
		dmsetup create wc --table "$(wc_table "/dev/$cache")"
	dmsetup remove wc 2>/dev/null
	pmem_reset
	return 0
fi

diag "kernel with patches/pfn-io (bio_add_pfn in /proc/kallsyms)"
is "$(cat "/sys/block/$cache/queue/pfn_io" 2>&1)" 0 "pmem does not take page-less bios"
is "$(cat "/sys/block/${origin#/dev/}/queue/pfn_io" 2>&1)" 1 "virtio-blk takes page-less bios"
if [ -e "/sys/block/$cache/memmap" ] || [ "$(cat "/sys/block/$cache/queue/dax")" != 0 ]; then
	not_ok "the raw namespace has a memmap or offers fs-dax"
else
	ok "the raw namespace has no memmap and offers no fs-dax"
fi

# fresh caches: zero dm-writecache's superblock each time
dd if=/dev/zero of="$origin" bs=1M count=64 oflag=direct 2>/dev/null
dd if=/dev/zero of="/dev/$cache" bs=1M count=1 oflag=direct 2>/dev/null
if check "writecache table with a raw pmem cache" \
	dmsetup create wc --table "$(wc_table "/dev/$cache")"; then
	check "32 MiB written through the cache" \
		dd if=/tmp/pfn.data of=/dev/mapper/wc bs=1M oflag=direct seek=8
	check "flush" dmsetup message wc 0 flush
	dmsetup message wc 0 cleaner
	check "written back by pfn to virtio-blk" wc_wait_clean
	is "$(wc_status_field 4)" 0 "no writeback error"
	dmsetup remove wc
	check "data on the origin device" \
		cmp -n $((32 << 20)) /tmp/pfn.data "$origin" 0 $((8 << 20))
fi

# The origin is now another raw pmem namespace: the pmem driver takes bios
# by struct page only, so the writeback bios must be refused before it.
origin2=/dev/$(ns_create -m raw -r region1 | jq -r .blockdev)
dd if=/dev/zero of="$origin2" bs=1M count=16 oflag=direct 2>/dev/null
dd if=/dev/zero of="/dev/$cache" bs=1M count=1 oflag=direct 2>/dev/null
if check "writecache over a pmem origin" dmsetup create wc2 --table \
	"0 $(blockdev --getsz "$origin2") writecache p $origin2 /dev/$cache 4096 0"; then
	check "4 MiB written through the cache" \
		dd if=/tmp/pfn.data of=/dev/mapper/wc2 bs=1M count=4 oflag=direct
	dmsetup message wc2 0 flush
	# the cleaner's writeback fails; so do the messages after it
	dmsetup message wc2 0 cleaner 2>/dev/null
	for _ in $(seq 100); do
		[ "$(wc_status_field 4 wc2)" = 0 ] || break
		sleep 0.1
	done
	is "$(wc_status_field 4 wc2)" 1 "writecache reports the writeback error"
	# dm-writecache logs the blk_status_t: 1 is BLK_STS_NOTSUPP
	if dmesg | grep -q 'writecache: write error 1$'; then
		ok "writeback to pmem refused with BLK_STS_NOTSUPP"
	else
		not_ok "writeback to pmem: $(dmesg | grep 'writecache:' | tail -n 1)"
	fi
	check "the refused bios never reached the pmem origin" \
		cmp -n $((16 << 20)) /dev/zero "$origin2"
	check "the data is still in the cache" \
		cmp -n $((4 << 20)) /tmp/pfn.data /dev/mapper/wc2
	dmsetup remove wc2
fi
pmem_reset
