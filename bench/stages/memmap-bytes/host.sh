# shellcheck shell=bash
# The memmap-bytes stage (sourced by bench/run): what the memmap of a device-dax
# namespace with its struct pages in the namespace (--map=dev) costs in pmem,
# for 2 MiB and 1 GiB alignment: the bytes it reserves, and the bytes written
# into its memmap area at enable and by a first touch of every page, counted by
# the host in the sparse backing files (tools/vm --written).  Up to three
# kernels of BENCH_MEMMAP_KERNELS, one boot each, one fresh NVDIMM of
# BENCH_MEMMAP_SIZE per cell:
#   default   the whole series (patches/series: lazy-memmap, pfn-io,
#             compound-altmap), eager and lazy policy: rows pmem-eager, pmem-lazy
#   nodedup   the same without patches/compound-altmap: today's lazy memmap,
#             built into build/obj/nodedup with the default kernel's fragments
#             (rows pmem-eager-nodedup, pmem-lazy-nodedup)
#   stock     Debian's 6.12 (eager only), built into build/obj/stock from
#             kernel-config/base.config (row stock-$KERNEL)
# Measures devdax_memmap_{reserved,enable,touch}_{2m,1g}_bytes.  Guest side:
# guest.sh here.  Rendered by bench/render: memmap-bytes, cover-memmap-bytes.

# memmap_kernel_built KERNEL: build/obj/KERNEL for a kernel other than default
memmap_kernel_built() {
	local first subject nodedup
	case $1 in
	default) ;;
	nodedup)
		# the last commit before the first patch of patches/compound-altmap
		first=$(series_patches compound-altmap/ | head -n 1)
		subject=$(sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$PATCHES/$first")
		nodedup=$(git -C "$KSRC" log --format='%H %s' pristine..HEAD |
			awk -v s="$subject" 'index($0, s) == 42 { print $1 }')
		[ -n "$nodedup" ] || { echo "no commit '$subject' in build/linux"; return 1; }
		build_commit nodedup "$nodedup^" "$TOP"/kernel-config/*.config ;;
	stock) build_commit stock pristine "$TOP/kernel-config/base.config" ;;
	*) echo "BENCH_MEMMAP_KERNELS: no kernel '$1' (default nodedup stock)"; return 1 ;;
	esac
}

stage_host() {
	local kernel policy align phase cells n slot written tag size cell_list
	size=$(to_bytes "$memmap_size")
	for kernel in $memmap_kernels; do
		progress "memmap bytes, $kernel kernel: devdax --map=dev 2M and 1G, NVDIMMs of $memmap_size"
		if ! memmap_kernel_built "$kernel" > "$LOGS/bench-memmap-build-$kernel.log" 2>&1; then
			status "$kernel" vm_memmap-bytes "$size" failed \
				"building the $kernel kernel failed: build/logs/bench-memmap-build-$kernel.log"
			continue
		fi
		cells=''
		for policy in eager lazy; do
			[ "$kernel:$policy" = stock:lazy ] && continue
			for align in 2M 1G; do
				cells="$cells $policy:$align:enable $policy:$align:touch"
			done
		done
		n=$(wc -w <<< "$cells")
		rm -f "$VM_DIR"/pmem*.img
		opts="-P bench -K $kernel -p ${n}x$memmap_size"
		# shellcheck disable=SC2086 # cells is a word list
		run_vm "bench-memmap-bytes-$kernel" "$size" "$kernel" "$opts" memmap-bytes $cells || continue
		read -ra cell_list <<< "$cells"
		# kernel policy align enable|touch reserved written, per cell
		while read -r slot _ _ written _ tag; do
			IFS=: read -r policy align phase <<< "${cell_list[$slot]}"
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$kernel" "$policy" "$align" "$phase" "${tag#reserved=}" "$written"
		done < <("$TOP/tools/vm" --written "$out/host-written.bench-memmap-bytes-$kernel") |
			# one record per row and measure: the touch's own bytes are those
			# of the touch cell less those of the enable cell
			awk -F'\t' -v OFS='\t' -v size="$size" -v stock="stock-$KERNEL" '
				{ k = $1 " " $2 " " $3; r[k] = $5; w[k, $4] = $6; if (!(k in seen)) { seen[k] = 1; order[n++] = k } }
				END {
					for (i = 0; i < n; i++) {
						k = order[i]; split(k, f, " ")
						a = f[1] == "stock" ? stock : "pmem-" f[2] (f[1] == "nodedup" ? "-nodedup" : "")
						m = "devdax_memmap_%s_" tolower(f[3]) "_bytes"
						print a, sprintf(m, "reserved"), size, r[k], "B"
						print a, sprintf(m, "enable"), size, w[k, "enable"], "B"
						print a, sprintf(m, "touch"), size, w[k, "touch"] - w[k, "enable"], "B"
					}
				}' >> "$out/records.tsv"
		rm -f "$VM_DIR"/pmem*.img
	done
}
