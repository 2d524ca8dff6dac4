# shellcheck shell=sh
# A ready chunk is never initialised again: a second initialisation would wipe
# the struct pages of pages in use.  The sysfs counters cannot show it (they are
# added to in the very branch a second initialisation takes), so this test looks
# at live struct-page state instead, on a devdax namespace aligned to 4 KiB (one
# struct page per mapped page, 512 in a chunk), in the last chunk of the
# namespace, with eager's results as the reference:
# - page->mapping and ->index, set by the fault of page A: a process maps A and
#   holds it; page B of the same chunk is faulted in by another process (under
#   the background policy the worker also passes the chunk after A was mapped);
#   then a memory failure at A must find the process through A's mapping and
#   index and send it SIGBUS for the right address.  A re-initialised A has no
#   mapping: memory_failure() can only report "Failed", as it does for page C,
#   never mapped, the control.
# - PG_hwpoison, set on A by that memory failure: page D of the chunk is faulted
#   in, then the flag must still be there.  Touching A again shows nothing (a
#   device-dax fault does not look at PG_hwpoison, in 6.12 neither eager nor
#   lazy SIGBUS there), but hwpoison's filter on page flags
#   (corrupt-filter-flags-mask/value = KPF_HWPOISON) lets a memory failure
#   through only for a page that has it: injected by madvise(MADV_HWPOISON) at
#   A it must come back as SIGBUS, at B (control) it must be filtered out.

KPF_HWPOISON=$((1 << 19))
hw=/sys/kernel/debug/hwpoison

# holder_wait LINE: wait up to 30 s for the holder's output to have LINE
holder_wait() {
	for _ in $(seq 300); do
		grep -q "$1" /tmp/reinit.holder && return 0
		sleep 0.1
	done
	return 1
}

# filter_flags MASK VALUE: hwpoison's page-flags filter (MASK 0: off)
filter_flags() {
	echo "$1" > $hw/corrupt-filter-flags-mask
	echo "$2" > $hw/corrupt-filter-flags-value
	echo $(( $1 != 0 )) > $hw/corrupt-filter-enable
}

# same_as_eager WHAT RESULTS WANT DESCRIPTION: under eager, RESULTS must be WANT
# (the outcome that shows the state is there) and are kept as the reference for
# WHAT; under the other policies they must equal eager's
same_as_eager() {
	if [ "$policy" = eager ]; then
		eval "eager_$1=\$2"
		is "$2" "$3" "eager: $4"
	else
		eval "want=\$eager_$1"
		# shellcheck disable=SC2154 # set by eval
		is "$2" "$want" "$policy: $4, as eager"
	fi
}

# hold_a: a process maps page A of $dax and holds it, its output in
# /tmp/reinit.holder, its pid in holder
hold_a() {
	dax-touch -o $((a * 4096)) -s 4K -w -H "/dev/$dax" > /tmp/reinit.holder 2>&1 &
	holder=$!
	holder_wait holding && return
	kill "$holder" 2>/dev/null
	return 1
}

reinit() {
	policy=$1
	pmem_reset
	memmap_policy "$policy"
	[ "$policy" = background ] && cpu_hogs_start
	js=$(ns_create -m devdax --map=dev -a 4K -s "$size") ||
		{ cpu_hogs_stop; not_ok "$policy: create: $(cat /tmp/ndctl.err)"; return; }
	ns=$(echo "$js" | jq -r .dev)
	dax=$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
	data=$(( $(ns_data_start "$ns") >> 12 ))
	npages=$(( $(cat "/sys/bus/dax/devices/$dax/size") >> 12 ))
	# the last chunk of the namespace (chunks are aligned to 512 pfns)
	chunk=$(( ((data + npages - 1) >> 9) << 9 ))
	[ "$chunk" -lt "$data" ] && chunk=$data
	a=$((chunk - data + 5)) b=$((chunk - data + 105)) c=$((chunk - data + 205)) d=$((chunk - data + 305))
	if [ $((d + 1)) -gt "$npages" ]; then
		cpu_hogs_stop
		not_ok "$policy: last chunk of $dax at pfn $chunk too short (data $data, $npages pages)"
		return
	fi
	diag "$policy: $dax data pfn $data, $npages pages; pages A $a, B $b, C $c, D $d in the chunk at pfn $chunk"

	if ! hold_a; then
		cpu_hogs_stop
		not_ok "$policy: process holding page A: $(cat /tmp/reinit.holder)"
		return
	fi
	if [ "$policy" = background ]; then
		# the worker goes through the chunks in order and A's is the last one:
		# still running now, it reaches A's chunk after A was mapped (if it was
		# done first, enable the namespace again, twice at most)
		for try in 1 2 3; do
			worker=$(memmap_worker "$ns")
			done_a=$(memmap_attr "$dax" initialized_bytes)
			[ -n "$worker" ] || [ "$try" = 3 ] && break
			diag "background, try $try: the worker was done before A was mapped"
			kill "$holder"
			wait "$holder"
			ndctl disable-namespace "$ns" >/dev/null 2>&1
			ndctl enable-namespace "$ns" >/dev/null 2>&1
			dax=$(ns_json "$ns" | jq -r '.daxregion.devices[0].chardev')
			hold_a || break
		done
		cpu_hogs_stop
		if [ -n "$worker" ]; then
			ok "background: page A mapped while $worker runs (memmap $done_a of $(memmap_attr "$dax" total_bytes) bytes)"
		else
			not_ok "background: the worker was gone before page A was mapped (memmap $done_a of $(memmap_attr "$dax" total_bytes) bytes)"
		fi
		for _ in $(seq 600); do
			[ "$(memmap_attr "$dax" complete)" = 1 ] && break
			sleep 0.1
		done
		is "$(memmap_attr "$dax" complete)" 1 "background: the worker completed the memmap, A's chunk included"
	fi
	check "$policy: page B of A's chunk faulted in by another process" \
		dax-touch -o $((b * 4096)) -s 4K -w "/dev/$dax"

	# control: C was never mapped, as A would look after a re-initialisation
	same_as_eager control "$(hwpoison_inject $((data + c)))" Failed \
		"memory failure at page C, never mapped, finds no mapping"
	r=$(hwpoison_inject $((data + a)))
	for _ in $(seq 100); do
		kill -0 "$holder" 2>/dev/null || break
		sleep 0.1
	done
	kill "$holder" 2>/dev/null
	wait "$holder"
	# BUS_MCEERR_AO (5): an early kill, at the start of the holder's one-page mapping
	same_as_eager mapping "$r, $(tail -n 1 /tmp/reinit.holder)" \
		"Recovered, dax-touch: SIGBUS code=5 offset=0 lsb=12" \
		"memory failure at page A finds its mapping and index: the holder gets SIGBUS"

	check "$policy: page D of the chunk faulted in after A was poisoned" \
		dax-touch -o $((d * 4096)) -s 4K -w "/dev/$dax"
	filter_flags "$KPF_HWPOISON" "$KPF_HWPOISON"
	# BUS_MCEERR_AR (4): the process that injected it maps the page
	ra=$(dax-touch -o $((a * 4096)) -s 4K -w -M 0 "/dev/$dax" 2>&1 | tail -n 1)
	rb=$(dax-touch -o $((b * 4096)) -s 4K -w -M 0 "/dev/$dax" 2>&1 | tail -n 1)
	filter_flags 0 0
	same_as_eager hwpoison "A: $ra; B: $rb" \
		"A: dax-touch: SIGBUS code=4 offset=0 lsb=12; B: dax-touch: no SIGBUS" \
		"PG_hwpoison still set on A (and not on B) after D's fault"
	teardown "$policy"
}

# the whole region: the more chunks, the longer the worker takes to reach A's
size=$(( $(cat /sys/bus/nd/devices/region0/size) ))
for policy in eager lazy background; do reinit "$policy"; done
rm -f /tmp/reinit.holder
memmap_policy lazy
pmem_reset
