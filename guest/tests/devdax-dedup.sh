# shellcheck shell=sh
# device-dax aligned to 2 MiB with its memmap in the namespace (--map=dev) maps
# the memmap of each compound page with two vmemmap pages of the altmap instead
# of eight (patches/compound-altmap), under every policy, as --map=mem does in
# DRAM: nr_memmap_pages counts two per 2 MiB.  Then PMD faults, GUP pins racing
# on never-touched pages, O_DIRECT between the mapping and virtio-blk, memory
# failure on a head and on a shared tail page (handled as with --map=mem), and
# a reconfiguration to fsdax and back, over the stale struct pages of the other
# layout.  1 GiB pages get the same checks but the reconfiguration, also in a
# namespace that does not start on a 1 GiB boundary.  tools/vm fails the boot
# on any kernel warning, e.g. memunmap_pages()'s "failed to free all reserved
# pages" if a teardown did not give the altmap its vmemmap pages back.

PMD_PAGES=512

# mf_against_mem MAP REF HEAD TAIL: memory failure on the pfns HEAD and TAIL.
# With --map=mem the results are the reference, kept in the variable named REF;
# with --map=dev they must be the same.
mf_against_mem() {
	results="head=$(hwpoison_inject "$3") tail=$(hwpoison_inject "$4")"
	if [ "$1" = mem ]; then
		eval "$2=\$results"
		case $results in
		*=|*"= "*) not_ok "$key: memory_failure() reported nothing: $results" ;;
		*) ok "$key: memory failure: $results" ;;
		esac
	else
		eval "want=\$$2"
		is "$results" "$want" "$key: memory failure handled as with the memmap in DRAM"
	fi
}

# one_policy POLICY MAP: a 1 GiB devdax namespace aligned to 2 MiB
one_policy() {
	key="$1 map=$2"
	pmem_reset
	memmap_policy "$1"
	base=$(vmstat nr_memmap_pages)
	js=$(ns_create -m devdax --map="$2" -a 2M -s "$GiB") ||
		{ not_ok "$key: create: $(cat /tmp/ndctl.err)"; return; }
	ns=$(echo "$js" | jq -r .dev)
	dax=/dev/$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
	# the pagemap spans the whole namespace, its memmap area included
	is "$(( $(vmstat nr_memmap_pages) - base ))" "$(memmap_pages_dedup "$GiB")" \
		"$key: vmstat: 2 vmemmap pages per 2 MiB page ($(memmap_pages "$GiB") without dedup)"

	# first, while the pages are untouched
	gup_race "$key: $GUP_THREADS threads pin (FOLL_PIN) never-touched $GUP_MB MiB of $dax at once" \
		-a -f "$dax"

	check "$key: write 64 MiB through 2 MiB mappings of $dax" dax-rw -a 2M -s 64M -S 3 write "$dax"
	check "$key: read it back" dax-rw -a 2M -s 64M -S 3 verify "$dax"
	check "$key: O_DIRECT between the mapping and virtio-blk" \
		dax-dio -q -s 8M -S 5 "$dax" /dev/disk-target

	# memory failure on never-touched pages past what the writes touched:
	# a head and a tail in the shared vmemmap page (index 300 of 512)
	holder=/sys/bus/nd/devices/$(cat "/sys/bus/nd/devices/$ns/holder")
	data=$(( $(cat "$holder/resource") >> 12 ))
	head=$(( data + 128 * PMD_PAGES ))
	mf_against_mem "$2" mem_results "$head" $(( head + PMD_PAGES + 300 ))

	teardown "$key"
}

# dedup_expected NAMESPACE MAP ALIGN: how many vmemmap pages nr_memmap_pages
# grows by for a devdax namespace with a deduplicated memmap.  2M: 2 per 2 MiB
# of the namespace.  1G: 2 per 128 MiB section before the first compound page
# (the metadata, with --map=dev; --map=mem has no altmap and its compound pages
# start with the namespace) and 2 per 1 GiB page, up to the 1 GiB boundary
# where the pagemap ends.
dedup_expected() {
	de_ns=/sys/bus/nd/devices/$1
	de_size=$(cat "$de_ns/size")
	if [ "$3" = 2M ]; then
		memmap_pages_dedup "$de_size"
		return
	fi
	de_start=$(( $(cat "$de_ns/resource") ))
	de_first=$de_start
	[ "$2" = dev ] && de_first=$(ns_data_start "$1")
	de_sections=$(( (de_first - de_start + (128 << 20) - 1) / (128 << 20) ))
	de_pages=$(( ((de_start + de_size) / GiB * GiB - de_first + GiB - 1) / GiB ))
	echo $(( 2 * (de_sections + de_pages) ))
}

# reconfigure ALIGN SIZE RW: a lazy devdax namespace of SIZE aligned to ALIGN,
# every page written, then fsdax over the same memmap area (a file written and
# read through DAX), then devdax again: deduplicated again over the stale struct
# pages of both layouts, RW bytes written and read through ALIGN mappings
reconfigure() {
	key="reconfigure $1"
	pmem_reset
	memmap_policy lazy
	js=$(ns_create -m devdax --map=dev -a "$1" -s "$2") ||
		{ not_ok "$key: create: $(cat /tmp/ndctl.err)"; return; }
	ns=$(echo "$js" | jq -r .dev)
	dax=/dev/$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
	check "$key: devdax: write every page" dax-touch -a "$1" -w "$dax"
	if js=$(ndctl create-namespace -f -e "$ns" -m fsdax --map=dev 2>/tmp/ndctl.err); then
		dev=$(echo "$js" | jq -r .blockdev)
		if mount_dax "$dev"; then
			check "$key: fsdax: write a file through a DAX mapping" dax-rw -S 9 -s 256M write /mnt/dax/f
			check "$key: fsdax: read it back" dax-rw -S 9 -s 256M verify /mnt/dax/f
			umount /mnt/dax
		else
			not_ok "$key: fsdax: mount -o dax"
		fi
	else
		not_ok "$key: to fsdax: $(cat /tmp/ndctl.err)"
	fi
	base=$(vmstat nr_memmap_pages)
	ndctl disable-namespace "$ns" >/dev/null 2>&1
	base_off=$(vmstat nr_memmap_pages)
	if js=$(ndctl create-namespace -f -e "$ns" -m devdax --map=dev -a "$1" 2>/tmp/ndctl.err); then
		dax=/dev/$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
		diag "$key: nr_memmap_pages fsdax $base, none $base_off, devdax $(vmstat nr_memmap_pages)"
		is "$(( $(vmstat nr_memmap_pages) - base_off ))" "$(dedup_expected "$ns" dev "$1")" \
			"$key: back to devdax: deduplicated again"
		check "$key: devdax again: write through $1 mappings" dax-rw -a "$1" -s "$3" -S 4 write "$dax"
		check "$key: devdax again: read it back" dax-rw -a "$1" -s "$3" -S 4 verify "$dax"
	else
		not_ok "$key: back to devdax: $(cat /tmp/ndctl.err)"
	fi
}

reconfigure 2M "$GiB" 512M
reconfigure 1G $((3 * GiB)) 1G

# one_gib POLICY MAP PAD: a 3 GiB devdax namespace aligned to 1 GiB, after a
# raw namespace of PAD bytes.  With PAD 512M it starts half-way between two
# 1 GiB boundaries: its metadata (info block, memmap area) runs up to the next
# one, and the compound pages start there, not on a grid counted from the
# namespace start; with 528M its first section is partial too.  Every 128 MiB
# section of the metadata has a head and a tail vmemmap page, every 1 GiB page
# two.
one_gib() {
	key="1G $1 map=$2 pad=$3"
	pmem_reset
	memmap_policy "$1"
	if [ "$3" != 0 ]; then
		ns_create -m raw -s "$3" >/dev/null || { not_ok "$key: raw namespace: $(cat /tmp/ndctl.err)"; return; }
	fi
	base=$(vmstat nr_memmap_pages)
	js=$(ns_create -m devdax --map="$2" -a 1G -s $((3 * GiB))) ||
		{ not_ok "$key: create: $(cat /tmp/ndctl.err)"; return; }
	ns=$(echo "$js" | jq -r .dev)
	dax=/dev/$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
	holder=/sys/bus/nd/devices/$(cat "/sys/bus/nd/devices/$ns/holder")
	data=$(( $(cat "$holder/resource") ))
	diag "$key: namespace at $(cat "/sys/bus/nd/devices/$ns/resource"), first 1 GiB page at $(printf %#x "$data")"
	is "$(( $(vmstat nr_memmap_pages) - base ))" "$(dedup_expected "$ns" "$2" 1G)" \
		"$key: vmstat: 2 vmemmap pages per metadata section and per 1 GiB page ($(memmap_pages $((3 * GiB))) without dedup)"
	# a chunk is the larger of a 2 MiB subsection and a compound page
	chunk=$(( (GiB >> 12) * STRUCT_PAGE ))
	[ "$1" = eager ] && chunk=0
	is "$(memmap_attr "${dax#/dev/}" chunk_bytes)" "$chunk" "$key: chunks of a 1 GiB page's struct pages"

	gup_race "$key: $GUP_THREADS threads pin (FOLL_PIN) never-touched 1 GiB of $dax at once" \
		-m 1024 -a -f "$dax"
	check "$key: write 1 GiB through a 1 GiB mapping" dax-rw -a 1G -s 1G -S 6 write "$dax"
	check "$key: read it back" dax-rw -a 1G -s 1G -S 6 verify "$dax"
	check "$key: O_DIRECT between a 1 GiB mapping and virtio-blk" \
		dax-dio -q -s 512M -S 7 "$dax" /dev/disk-target

	# the second 1 GiB page, never touched: its head, and a tail whose
	# struct page is in the shared vmemmap page
	head=$(( (data >> 12) + (GiB >> 12) ))
	mf_against_mem "$2" gib_mem_results "$head" $(( head + 100000 ))
	teardown "$key"
}

# Last, as the pages it poisons stay so: the policies against --map=mem
one_policy eager mem
for policy in lazy eager background; do one_policy "$policy" dev; done
one_gib eager mem 0
one_gib lazy dev 528M
one_gib eager dev 512M
one_gib background dev 0
memmap_policy lazy
pmem_reset
