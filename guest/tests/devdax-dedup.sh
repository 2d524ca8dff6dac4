# shellcheck shell=sh
# device-dax aligned to 2 MiB with its memmap in the namespace (--map=dev) maps
# the memmap of each compound page with two vmemmap pages of the altmap instead
# of eight (patches/compound-altmap), under every policy, as --map=mem does in
# DRAM: nr_memmap_pages counts two per 2 MiB.  Then PMD faults, GUP pins racing
# on never-touched pages, O_DIRECT between the mapping and virtio-blk, memory
# failure on a head and on a shared tail page (handled as with --map=mem), and
# a reconfiguration to fsdax and back, over the stale struct pages of the other
# layout.  1 GiB pages keep a full memmap.  tools/vm fails the boot on any
# kernel warning, e.g. memunmap_pages()'s "failed to free all reserved pages"
# if a teardown did not give the altmap its vmemmap pages back.

PMD_PAGES=512

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
	results="head=$(hwpoison_inject "$head") tail=$(hwpoison_inject $(( head + PMD_PAGES + 300 )))"
	if [ "$2" = mem ]; then
		mem_results=$results
		case $results in
		*=|*"= "*) not_ok "$key: memory_failure() reported nothing: $results" ;;
		*) ok "$key: memory failure: $results" ;;
		esac
	else
		is "$results" "$mem_results" "$key: memory failure handled as with the memmap in DRAM"
	fi

	teardown "$key"
}

# Reconfigure to fsdax and back: the memmap area holds the deduplicated layout's
# vmemmap pages, then fsdax's struct pages, then devdax's again.
pmem_reset
memmap_policy lazy
js=$(ns_create -m devdax --map=dev -a 2M -s "$GiB") || not_ok "reconfigure: create: $(cat /tmp/ndctl.err)"
ns=$(echo "$js" | jq -r .dev)
dax=/dev/$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
check "reconfigure: devdax: touch every page" dax-touch -a 2M -w "$dax"
if js=$(ndctl create-namespace -f -e "$ns" -m fsdax --map=dev 2>/tmp/ndctl.err); then
	dev=$(echo "$js" | jq -r .blockdev)
	if mount_dax "$dev"; then
		check "reconfigure: fsdax: write a file through a DAX mapping" dax-rw -S 9 -s 256M write /mnt/dax/f
		check "reconfigure: fsdax: read it back" dax-rw -S 9 -s 256M verify /mnt/dax/f
		umount /mnt/dax
	else
		not_ok "reconfigure: fsdax: mount -o dax"
	fi
else
	not_ok "reconfigure to fsdax: $(cat /tmp/ndctl.err)"
fi
base=$(vmstat nr_memmap_pages)
ndctl disable-namespace "$ns" >/dev/null 2>&1
base_off=$(vmstat nr_memmap_pages)
if js=$(ndctl create-namespace -f -e "$ns" -m devdax --map=dev -a 2M 2>/tmp/ndctl.err); then
	dax=/dev/$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
	diag "reconfigure: nr_memmap_pages fsdax $base, none $base_off, devdax $(vmstat nr_memmap_pages)"
	is "$(( $(vmstat nr_memmap_pages) - base_off ))" "$(memmap_pages_dedup "$GiB")" \
		"reconfigure: back to devdax: deduplicated again"
	check "reconfigure: devdax again: write through 2 MiB mappings" dax-rw -a 2M -s 512M -S 4 write "$dax"
	check "reconfigure: devdax again: read it back" dax-rw -a 2M -s 512M -S 4 verify "$dax"
else
	not_ok "reconfigure back to devdax: $(cat /tmp/ndctl.err)"
fi

# 1 GiB pages: a compound page larger than a subsection keeps its full memmap
pmem_reset
base=$(vmstat nr_memmap_pages)
if js=$(ns_create -m devdax --map=dev -a 1G -s $((3 * GiB))); then
	dax=/dev/$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
	is "$(( $(vmstat nr_memmap_pages) - base ))" "$(memmap_pages $((3 * GiB)))" \
		"1G: vmstat: the full memmap (not deduplicated)"
	check "1G: write through 1 GiB mappings" dax-rw -a 1G -s 1G -S 6 write "$dax"
	check "1G: read it back" dax-rw -a 1G -s 1G -S 6 verify "$dax"
else
	not_ok "1G: create: $(cat /tmp/ndctl.err)"
fi

# Last, as the pages it poisons stay so: the policies against --map=mem
one_policy eager mem
for policy in lazy eager background; do one_policy "$policy" dev; done
memmap_policy lazy
pmem_reset
