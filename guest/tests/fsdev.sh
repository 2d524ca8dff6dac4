# shellcheck shell=sh
# The fs-dax compatible device-dax driver (fsdev_dax, CONFIG_DEV_DAX_FSDEV, new
# in 7.x) on the device-dax instance of a lazy devdax namespace.  Its probe and
# its unbind walk every data pfn to undo the compound folios an earlier driver
# left (fsdev_clear_folio_state()).  Struct pages that the lazy memmap has not
# initialised hold no folio state, only what the media held (on the debug kernel
# sparse_add_section()'s poison, whose compound head the walk would follow into
# an oops, as the ensure-fsdev mutant shows): the walk must
# skip them and leave the memmap lazy, and device_dax must work again after it.
# fsdev's direct_access (fs-dax's way in) needs a filesystem such as famfs that
# mounts a dax character device; there is none here, so that path is not run.

drv=/sys/bus/dax/drivers
# write_file FILE VALUE: a sysfs write whose failure (the errno) is the result
write_file() { printf '%s' "$2" > "$1"; }
bound_to() { basename "$(readlink -f "/sys/bus/dax/devices/$1/driver")"; }

pmem_reset
if js=$(ns_create -m devdax --map=dev -a 2M -s "$((2 * GiB))"); then
	ok "lazy devdax namespace of 2 GiB, 2 MiB aligned"
	dax=$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
	check "device_dax: 64 MiB written through mmap of /dev/$dax (compound folios)" \
		dax-rw -a 2M -s 64M -S 3 write "/dev/$dax"
	check "unbind $dax from device_dax" write_file $drv/device_dax/unbind "$dax"
	init0=$(vmstat nr_memmap_lazy_initialized)
	check "bind $dax to fsdev_dax (new_id)" write_file $drv/fsdev_dax/new_id "$dax"
	is "$(bound_to "$dax")" fsdev_dax "$dax is bound to fsdev_dax"
	# fsdev maps the pagemap again with order-0 pages: a lazy memmap initialises
	# its first 2 MiB chunk (512 struct pages) at enable, and the walk no more
	is "$(( $(vmstat nr_memmap_lazy_initialized) - init0 ))" 512 \
		"fsdev's probe initialised one chunk's struct pages, the walk none"
	check "unbind $dax from fsdev_dax" write_file $drv/fsdev_dax/unbind "$dax"
	write_file $drv/fsdev_dax/remove_id "$dax"
	check "bind $dax to device_dax again" write_file $drv/device_dax/bind "$dax"
	check "device_dax: 64 MiB written again" dax-rw -a 2M -s 64M -S 4 write "/dev/$dax"
	check "and read back" dax-rw -a 2M -s 64M -S 4 verify "/dev/$dax"
else
	not_ok "lazy devdax namespace of 2 GiB: create: $(cat /tmp/ndctl.err)"
fi
pmem_reset
