# shellcheck shell=bash
# The work stage (sourced by bench/run): one boot, an NVDIMM of BENCH_TOUCH_SIZE
# per approach of the stage and a virtio-blk disk: first touch (devdax and a DAX
# file, 4 KiB and 2 MiB mappings, with enable; wall and kernel time of the
# faults), O_DIRECT from a DAX mapping to the disk, and dm-writecache with a
# pmem cache (fio).  Guest side: guest.sh here.  Rendered by bench/render:
# touch, dio, writecache.
stage_host() { workload_boot work "$touch_size" "$reps" -d 1G; }
