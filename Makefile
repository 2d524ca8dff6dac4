# Lazy struct-page initialisation for pmem: build, boot, test and measure.
# `make test` and `make bench` do all set-up themselves (apt-get as root).

# KERNEL=6.12 (the default: Debian stable's, patches/series) or KERNEL=7.2
# (Debian's newest, patches/7.2/series): the kernel that kernel, kernel-debug,
# bench, mutants, series-export, check-series and rfc work on.  make test runs
# both (the KERNELS column of guest/groups).
KERNEL ?= 6.12
export KERNEL

.PHONY: all deps kernel kernel-debug guest test bench test-debug mutants series-export docs check-series rfc shellcheck clean distclean help

all: test

help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)

## deps          install the Debian packages the project needs (as root), fetch linux-source-7.2 into build/debs
deps:
	@tools/deps

## kernel        build/obj/default/arch/x86/boot/bzImage: Debian 6.12 + patches/series (KERNEL=7.2: build/7.2/obj/default, + patches/7.2/series)
kernel: deps
	@tools/build-kernel

## kernel-debug  build/obj/debug: the same + kernel-config/variants/debug.config (DEBUG_VM, lockdep)
kernel-debug: deps
	@tools/build-kernel --variant debug

## guest         build/guest/: initramfs and fio tools disk
guest: kernel
	@tools/build-guest

## test          every guest test group on the kernels guest/groups names (6.12 and 7.2, default and debug builds), the bench smoke test, the RFC checks of both; ends "N passed, N failed"
test: deps
	@KERNEL=6.12 tools/build-kernel
	@KERNEL=6.12 tools/build-kernel --variant debug
	@KERNEL=7.2 tools/build-kernel
	@KERNEL=7.2 tools/build-kernel --variant debug
	@KERNEL=6.12 tools/build-guest
	@KERNEL=6.12 tools/run-tests

## test-debug    the whole suite on the debug kernel (kernel-config/variants/debug.config)
test-debug: kernel-debug guest
	@tools/run-tests --kernel debug

## mutants       a debug kernel without each choke point (patches/mutants): the suite must fail on every one
mutants: deps
	@tools/mutants

## bench         the head-to-head measurements (bench/)
bench: kernel guest
	@bench/run

## series-export write the commits of build/linux (a branch per series) back into patches/
series-export:
	@tools/series-export

## docs          render the bench numbers of docs/ and the cover letters from their records (bench/results/)
docs:
	@tools/render-docs

## check-series each series applies alone and together; build every step and each series alone; checkpatch --strict
check-series: deps
	@tools/check-series

## rfc           build/rfc/: the lazy-memmap series ready to post (after check-series)
rfc: check-series
	@tools/rfc

## shellcheck    lint the shell scripts
shellcheck:
	@shellcheck -x tools/lib.sh tools/deps tools/build-kernel tools/build-guest tools/vm \
		tools/run-tests tools/check-series tools/rfc tools/test-rfc tools/test-harness \
		tools/test-detectors tools/mutants tools/series-export tools/render-docs \
		bench/run bench/report bench/render .ci/run
	@# a stage's host side runs in bench/run, its guest side in bench/guest.sh: their
	@# variables come from there
	@shellcheck -e SC2154,SC2153 bench/stages/*/host.sh
	@# guest tests are sourced after guest/lib/*.sh: their variables come from there
	@shellcheck -s sh -e SC2154 guest/init guest/run-group guest/lib/*.sh guest/tests/*.sh bench/guest.sh bench/stages/*/guest.sh bench/approaches.sh

## clean         remove build output except the extracted kernel tree
clean:
	rm -rf build/obj build/guest build/vm build/logs build/bench build/rfc build/rfc-test

## distclean     remove build/ entirely (ccache in ~/.cache stays)
distclean:
	rm -rf build
