# shellcheck shell=sh
# Destroy and re-create a namespace 10 times: no error, no DRAM lost (no_leak).

pmem_reset
ns_create -m fsdax --map=dev -s "$GiB" >/dev/null && pmem_reset
settled=$(mem_settled)
errors=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	ns_create -m fsdax --map=dev -s "$GiB" >/dev/null || { errors=$((errors + 1)); diag "create $i: $(cat /tmp/ndctl.err)"; }
	ndctl destroy-namespace -f all >/dev/null 2>&1 || { errors=$((errors + 1)); diag "destroy $i failed"; }
done
is "$errors" 0 "10 create/destroy cycles without error"
no_leak "10 create/destroy cycles" "$settled"
