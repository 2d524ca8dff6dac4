# shellcheck shell=sh
# Guest side of the touch stage (sourced by bench/guest.sh):
#   touch REPS APPROACH...  first touch only (first_touches, bench/guest.sh)
stage_guest() {
	first_touches "$@"
	pmem_reset
}
