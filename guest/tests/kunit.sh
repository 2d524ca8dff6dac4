# shellcheck shell=sh
# The KUnit suites built into the kernel ran at boot: one result per case.

found=
for results in /sys/kernel/debug/kunit/*/results; do
	[ -e "$results" ] || continue
	suite=$(basename "$(dirname "$results")")
	found=1
	grep -E '^[[:space:]]+(not )?ok [0-9]+ ' "$results" | while read -r verdict rest; do
		case $verdict in
		ok) ok "$suite: ${rest#* }" ;;
		*) not_ok "$suite: ${rest#ok * }" ;;
		esac
	done
done
[ -n "$found" ] || not_ok "no KUnit results in debugfs"
