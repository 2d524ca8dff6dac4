# shellcheck shell=sh
# The KUnit suites built into the kernel ran at boot: one result per case and one
# per suite.  A suite's debugfs results file is KTAP ("KTAP version 1", "1..1", then
# indented "# Subtest: NAME", its plan "1..N", the cases' "ok/not ok I NAME" lines,
# and last the suite's own unindented "ok/not ok 1 NAME").  The suite passes when
# that last line says ok, the plan is there and N case results were counted (fewer:
# the suite crashed half-way); every suite of KUNIT_SUITES must have a results file.
# This is the guest's stand-in for the kernel's parser (tools/testing/kunit/kunit.py
# parse), which needs python: tools/run-tests also runs kunit.py on the host, on the
# KTAP the suites printed to the console of this boot.
# KUNIT_DEBUGFS: for tools/test-harness, which feeds it sample files.
debugfs=${KUNIT_DEBUGFS:-/sys/kernel/debug/kunit}

for suite in ${KUNIT_SUITES:-memmap_lazy zone_device_memmap_init}; do
	[ -e "$debugfs/$suite/results" ] || not_ok "$suite: no results in $debugfs (not built, or it did not run)"
done
found=
for results in "$debugfs"/*/results; do
	[ -e "$results" ] || continue
	suite=$(basename "$(dirname "$results")")
	found=1
	awk '/^    (not )?ok [0-9]+ / { n++; v = $1; sub(/^ *(not )?ok [0-9]+ /, ""); print v, $0; next }
		/^    1\.\.[0-9]+$/ { plan = substr($1, 4) }
		/^(not )?ok [0-9]+ / { top = $1 == "not" ? "not-ok" : "ok" }
		END { print "end", n + 0, (plan == "" ? "none" : plan), (top == "" ? "none" : top) }' "$results" |
	while read -r verdict rest; do
		case $verdict in
		ok) ok "$suite: $rest" ;;
		not) not_ok "$suite: $rest" ;;
		end)
			# shellcheck disable=SC2086 # three words: cases, plan, suite verdict
			set -- $rest
			if [ "$3" = ok ] && [ "$2" = "$1" ]; then
				ok "$suite: suite ok, $1 case results for plan 1..$2"
			else
				not_ok "$suite: suite result '$3', $1 case results for plan 1..$2"
			fi ;;
		esac
	done
done
[ -n "$found" ] || not_ok "no KUnit results in $debugfs"
