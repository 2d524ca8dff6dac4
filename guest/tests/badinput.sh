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
