# shellcheck shell=sh
# CXL persistent memory, the first test of a CXL boot: a pmem region over each
# CXL memdev (cxl create-region), which cxl_pmem turns into a libnvdimm region
# of the device's size on the "CXL" bus, with the labels in the device's label
# area: the next tests make namespaces on it as on an NVDIMM (pmem_reset
# initialises the labels), persist-verify finds the one persist-write made.

for m in /sys/bus/cxl/devices/mem*; do
	mem=${m##*/}
	if r=$(cxl_region_create "$mem"); then
		ok "$mem: CXL pmem region $r, $(cxl list -r "$r" | jq -r '.[0].size // .size') bytes"
	else
		not_ok "$mem: cxl create-region: $(cat /tmp/cxl.err)"
	fi
done
is "$(found_sizes cxl-pmem)" "$(kind_sizes cxl-pmem)" "a libnvdimm region per memdev, of its size"
