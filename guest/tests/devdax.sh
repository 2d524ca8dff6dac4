# shellcheck shell=sh
# device-dax: mmap /dev/daxX.Y, write and read back, with 4 KiB and 2 MiB
# namespace alignment (2 MiB mappings need a 2 MiB-aligned address).

for align in 4K 2M; do
	pmem_reset
	if ! js=$(ns_create -m devdax -a $align -s "$GiB"); then
		not_ok "align=$align: create: $(cat /tmp/ndctl.err)"
		continue
	fi
	chardev=/dev/$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
	check "align=$align: write a pattern through mmap of $chardev" \
		dax-rw -a $align -s 64M -S 7 write "$chardev"
	check "align=$align: read it back" dax-rw -a $align -s 64M -S 7 verify "$chardev"
done
pmem_reset
