# shellcheck shell=sh
# Guest side of the refault stage (sourced by bench/guest.sh):
#   refault ROUNDS APPROACH...  the touches again once the struct pages are
#                               initialised, approaches interleaved
# refault_rounds MEASURE PASSES ARGS...: the variable targets holds
# APPROACH=PATH words; ROUNDS rounds of one dax-touch -n PASSES ARGS PATH per
# approach, each round in an order rotated by one, so that drift under TCG
# spreads evenly over the approaches.  A record is the time of PASSES passes.
refault_rounds() {
	m=$1 passes=$2
	shift 2
	[ -n "$targets" ] || return 0
	for round in $(seq "$rounds"); do
		# shellcheck disable=SC2086 # word lists
		for t in $(rotate "$round" $targets); do
			touch_rec "${t%%=*}" "$m" - -n "$passes" "$@" "${t#*=}" || true
		done
	done
}

# refault_devdax: approach a's devdax namespace on region r, aligned to
# $align, touched once with its mappings (each_approach); adds it to targets
refault_devdax() {
	# shellcheck disable=SC2046 # word list of ndctl options
	if ! js=$(ndctl create-namespace $(approach_ns_args "$a" devdax) -a "$align" -r "region$r" 2>&1); then
		unsup "$a" "devdax_refault_${tag}_s" "$size" "ndctl create-namespace -m devdax: $js"
		return 0
	fi
	dax=/dev/$(echo "$js" | jq -r '.daxregion.devices[0].chardev')
	# shellcheck disable=SC2086 # zero or two words
	dax-touch $opt "$dax" >/dev/null && targets="$targets $a=$dax"
}

# refault_fsdax: approach a's DAX file on region r (each_approach), touched
# once with 2 MiB mappings: the DAX entries are then PMD entries, which 4 KiB
# faults use too (the other way round, PMD faults would fall back to 4 KiB
# ones); adds it to targets
refault_fsdax() {
	if fsdax_file "$a" "$r" "/mnt/refault$r"; then
		dax-touch -a 2M "/mnt/refault$r/f" >/dev/null && targets="$targets $a=/mnt/refault$r/f"
	else
		unsup "$a" fsdax_refault_4k_s "$size" "$fs_err"
	fi
}

# refault ROUNDS APPROACH...: the first-touch workloads again once every page
# was touched, i.e. on initialised struct pages: the cost of the fault path
# itself.  Every approach's namespace is set up and touched once first.
REFAULT_PASSES_2M=3
refault() {
	rounds=$1
	shift
	for align in 4K 2M; do
		tag=4k passes=1 opt=''
		[ $align = 4K ] || tag=2m passes=$REFAULT_PASSES_2M opt="-a 2M"
		progress "refault: devdax with $align mappings, $rounds rounds of $*"
		targets=''
		each_approach refault_devdax 1 "$@"
		# shellcheck disable=SC2086 # zero or two words
		refault_rounds "devdax_refault_${tag}_s" "$passes" $opt
	done
	progress "refault: DAX file, 4 KiB and 2 MiB mappings, $rounds rounds of $*"
	targets=''
	each_approach refault_fsdax 1 "$@"
	refault_rounds fsdax_refault_2m_s "$REFAULT_PASSES_2M" -a 2M
	refault_rounds fsdax_refault_4k_s 1 -u
	for t in $targets; do umount "$(dirname "${t#*=}")"; done
	pmem_reset
}

stage_guest() { refault "$@"; }
