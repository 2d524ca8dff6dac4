# shellcheck shell=sh
# TAP helpers for the guest tests (busybox sh).  One counter per boot, kept in
# TAP_DIR (/tmp) so that every test script of a group numbers its results in one
# stream.
TAP_COUNTER=${TAP_DIR:-/tmp}/tap.count
TEST_NAME=${TEST_NAME:-$(basename "$0" .sh)}

tap_next() {
	n=$(($(cat "$TAP_COUNTER" 2>/dev/null || echo 0) + 1))
	echo "$n" > "$TAP_COUNTER"
	echo "$n"
}
ok() { echo "ok $(tap_next) - $TEST_NAME: $*"; }
not_ok() { echo "not ok $(tap_next) - $TEST_NAME: $*"; }
skip() { echo "ok $(tap_next) - $TEST_NAME: $1 # SKIP $2"; }
diag() { echo "# $*"; }

# check DESCRIPTION COMMAND...: one result from a command's exit status;
# the command's output is shown as diagnostics only when it fails.
check() {
	desc=$1
	shift
	if out=$("$@" 2>&1); then
		ok "$desc"
	else
		not_ok "$desc"
		printf '%s\n' "$out" | sed 's/^/#   /'
	fi
}

# expect_fail DESCRIPTION PATTERN COMMAND...: the command must fail and say PATTERN
expect_fail() {
	desc=$1 pattern=$2
	shift 2
	if out=$("$@" 2>&1); then
		not_ok "$desc (succeeded)"
	elif printf '%s\n' "$out" | grep -qiE -- "$pattern"; then
		ok "$desc"
	else
		not_ok "$desc (no '$pattern' in the error)"
	fi
	printf '%s\n' "$out" | head -n 3 | sed 's/^/#   /'
}

# is VALUE EXPECTED DESCRIPTION
is() {
	if [ "$1" = "$2" ]; then ok "$3"; else not_ok "$3 (got '$1', want '$2')"; fi
}
