# shellcheck shell=sh
# A bad zone_device.memmap_init on the kernel command line (group "badcmdline"
# boots with one): the kernel says so at boot, keeps the default policy, and the
# namespaces it enables work as with no option at all.

param=/sys/module/zone_device/parameters/memmap_init
case $(cat /proc/cmdline) in
*zone_device.memmap_init=*) ok "booted with $(tr ' ' '\n' < /proc/cmdline | grep zone_device.memmap_init=)" ;;
*) not_ok "no zone_device.memmap_init= on the command line: this test needs one" ;;
esac
if dmesg | grep -q "invalid for parameter \`zone_device.memmap_init'"; then
	ok "the kernel names the bad value: $(dmesg | grep -m 1 -o "\`[^']*' invalid for parameter \`zone_device.memmap_init'")"
else
	not_ok "no 'invalid for parameter' message for zone_device.memmap_init in dmesg"
fi
is "$(cat "$param")" lazy "the policy stays the default (lazy)"

pmem_reset
if js=$(ns_create -m devdax -s "$GiB"); then
	dax=$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
	is "$(memmap_attr "$dax" policy)/$(memmap_attr "$dax" complete)" lazy/0 \
		"a namespace enabled afterwards has a lazy memmap"
	check "its first 64 MiB take a write through a DAX mapping" dax-rw -s 64M write "/dev/$dax"
	check "and read it back" dax-rw -s 64M verify "/dev/$dax"
else
	not_ok "create a devdax namespace: $(cat /tmp/ndctl.err)"
fi
pmem_reset
