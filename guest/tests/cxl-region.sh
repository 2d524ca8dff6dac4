# shellcheck shell=sh
# CXL persistent memory, the first test of a CXL boot: a pmem region over each
# CXL memdev (cxl create-region), which cxl_pmem turns into a libnvdimm region
# of the device's size on the "CXL" bus; its labels (in the device's label
# area) initialised, all of it is free for namespaces, as on an NVDIMM.

for m in /sys/bus/cxl/devices/mem*; do
	mem=${m##*/}
	if r=$(cxl_region_create "$mem"); then
		ok "$mem: CXL pmem region $r, $(cxl list -r "$r" | jq -r '.[0].size // .size') bytes"
	else
		not_ok "$mem: cxl create-region: $(cat /tmp/cxl.err)"
	fi
done
is "$(found_sizes cxl-pmem)" "$(kind_sizes cxl-pmem)" "a libnvdimm region per memdev, of its size"
pmem_reset
for r in $(provider_regions cxl-pmem); do
	is "$(ndctl list -r "$r" | jq -r '.[0].available_size // .available_size')" \
		"$(cat "/sys/bus/nd/devices/$r/size")" "$r: labels initialised, all of it available"
done
