# shellcheck shell=sh
# Bad requests to ndctl fail with a message and leave the region usable.

pmem_reset
expect_fail "misaligned size refused" "align|invalid" \
	ndctl create-namespace -m fsdax --map=dev -s 1000001
expect_fail "size larger than the region refused" "space|size|available|exceed" \
	ndctl create-namespace -m fsdax --map=dev -s $((1 << 40))
expect_fail "unknown mode refused" "mode|invalid" \
	ndctl create-namespace -m nosuchmode -s "$GiB"
if ns_create -m fsdax --map=dev -s "$GiB" >/dev/null; then
	ok "region still usable after the refusals"
else
	not_ok "region unusable: $(cat /tmp/ndctl.err)"
fi
pmem_reset

# The policy parameter (mm/memmap_lazy.c, memmap_init_policy_set()): only the
# exact names match (sysfs_match_string(): case-sensitive, one trailing newline
# allowed), anything else is -EINVAL and leaves the policy as it was.  The
# over-long value reaches the parameter cut to a page by kernfs, still -EINVAL.
param=/sys/module/zone_device/parameters/memmap_init
# write_to FILE VALUE: one write() of VALUE and a newline, as "echo VALUE > FILE"
write_to() { echo "$2" > "$1"; }
memmap_policy background
long=$(printf '%05000d' 0 | tr 0 x)
for bad in "" bogus Lazy "lazy " "$long"; do
	what=$(printf %s "$bad" | cut -c 1-12)
	expect_fail "memmap_init '$what' (${#bad} chars) refused with EINVAL" "invalid argument" \
		write_to "$param" "$bad"
	is "$(cat $param)" background "memmap_init still background after '$what'"
done
memmap_policy lazy

# The memmap statistics are read-only (0444, no store): opening one for writing
# fails with EACCES, root or not, and the values stay as they were
pmem_reset
js=$(ns_create -m fsdax --map=dev -s "$GiB") || not_ok "fsdax create: $(cat /tmp/ndctl.err)"
dev=$(echo "$js" | jq -r .blockdev)
ns_create -m devdax --map=dev -s "$GiB" >/tmp/badinput.js || not_ok "devdax create: $(cat /tmp/ndctl.err)"
dax=$(jq -r '.daxregion.devices[0].chardev' /tmp/badinput.js)
for d in "$dev" "$dax"; do
	for attr in policy chunk_bytes total_bytes initialized_bytes complete; do
		before=$(memmap_attr "$d" "$attr")
		case $d in
		dax*) f=/sys/bus/dax/devices/$d/memmap/$attr ;;
		*) f=/sys/block/$d/memmap/$attr ;;
		esac
		expect_fail "$d memmap/$attr: write refused" "permission denied" \
			write_to "$f" eager
		is "$(memmap_attr "$d" "$attr")" "$before" "$d memmap/$attr unchanged ($before)"
	done
done

# consistent POLICY COMPLETE INITIALISED TOTAL CHUNK: the counters as POLICY leaves
# them after an enable that nothing touched since (lazy: the first chunk; background:
# complete once the worker is done; eager: no chunks)
consistent() {
	case $1 in
	eager) [ "$2" = 1 ] && [ "$3" = "$4" ] && [ "$5" = 0 ] ;;
	background) [ "$2" = 1 ] && [ "$3" = "$4" ] && [ "$5" -gt 0 ] ;;
	lazy) [ "$2" = 0 ] && [ "$3" -gt 0 ] && [ "$3" -le "$5" ] ;;
	*) false ;;
	esac
}

# The policy changing all the time while a namespace is enabled again and again:
# each enable reads it once, so each memmap is wholly one of the three
ns=$(echo "$js" | jq -r .dev)
(while :; do for p in eager lazy background; do echo "$p" > $param; done; done) &
flipper=$!
for i in 1 2 3 4 5 6; do
	ndctl disable-namespace "$ns" >/dev/null 2>&1 || not_ok "disable $i"
	ndctl enable-namespace "$ns" >/dev/null 2>&1 || not_ok "enable $i"
	dev=$(ns_json "$ns" | jq -r .blockdev)
	policy=$(memmap_attr "$dev" policy)
	if [ "$policy" = background ]; then
		for _ in $(seq 600); do
			[ "$(memmap_attr "$dev" complete)" = 1 ] && break
			sleep 0.1
		done
	fi
	state="$policy $(memmap_attr "$dev" complete) $(memmap_attr "$dev" initialized_bytes) $(memmap_attr "$dev" total_bytes) $(memmap_attr "$dev" chunk_bytes)"
	# shellcheck disable=SC2086 # five words
	set -- $state
	if consistent "$@"; then
		ok "enable $i during policy changes: $1, complete $2, $3 of $4 bytes, chunks of $5"
	else
		not_ok "enable $i during policy changes: policy '$1', complete $2, $3 of $4 bytes, chunks of $5"
	fi
done
kill "$flipper"
wait "$flipper" 2>/dev/null
memmap_policy lazy
rm -f /tmp/badinput.js
pmem_reset
