# What the booted-guest scripts (boot-to-play, boot-rooms) share: a disk image and an
# initramfs from a root filesystem, and booting it under QEMU until the guest reports.
# Sourced after `here`, `cache`, `kver` and `work` (with `out`, the share) are set.

# make_disk ROOTFS: the kernel's modules the guest uses into ROOTFS, then ROOTFS packed
# into $work/disk.img (ROOTFS is removed) and the initramfs that mounts it.
make_disk() {
    local rootfs=$1 modules initramfs ko rel m
    # The kernel's modules the guest uses, with what they depend on.
    modules=$cache/root/lib/modules/$kver
    for m in snd-aloop 9p 9pnet_virtio virtio_pci virtio_blk ext4; do
        modprobe -d "$cache/root" -S "$kver" --show-depends "$m" 2>/dev/null | awk '$1 == "insmod" {print $2}'
    done | sort -u > "$work/modules"
    while read -r ko; do
        rel=${ko#"$cache/root/"}
        mkdir -p "$rootfs/$(dirname "$rel")" && cp "$ko" "$rootfs/$rel"
    done < "$work/modules"
    cp "$modules"/modules.{order,builtin,builtin.modinfo} "$rootfs/lib/modules/$kver/" 2>/dev/null || true
    depmod -b "$rootfs" "$kver"
    mke2fs -q -t ext4 -L root -d "$rootfs" "$work/disk.img" 1G
    rm -rf "$rootfs"

    # The initramfs that mounts the disk and hands over to systemd.
    initramfs=$work/initramfs
    mkdir -p "$initramfs"/{bin,dev,proc,sys,root}
    cp /bin/busybox "$initramfs/bin/"
    cp "$here/debian/init" "$initramfs/init"
    while read -r ko; do
        case $ko in *snd*|*9p*) continue ;; esac
        rel=${ko#"$cache/root/"}
        mkdir -p "$initramfs/$(dirname "$rel")" && cp "$ko" "$initramfs/$rel"
    done < "$work/modules"
    cp "$modules"/modules.{dep,alias,builtin} "$initramfs/lib/modules/$kver/"
    (cd "$initramfs" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initramfs.gz"
    say "booted guest: image $(du -h --apparent-size "$work/disk.img" | cut -f1) ($(du -h "$work/disk.img" | cut -f1) used)"
}

# boot N: starts the guest (in the background) and waits for its report. Now and then
# (twice in some 40 CI runs) the guest's kernel hangs early in the boot under TCG: soft
# lockups of udev and systemd on both vCPUs, for good, with the jukebox nowhere in them.
# That guest's power is cut at once and the boot made again, once, and said; a soft
# lockup in the jukebox, or a second hang, fails.
retried=0
boot() {
    start_guest "$1"
    wait_report "$1" && return
    if kernel_hung "$1"; then
        echo "boot $1: the guest's kernel hung ($(grep -ao -m 1 'soft lockup.*' "$work/console-$1.log" | tr -d '\r')); power cut, booting again"
        retried=$((retried + 1))
        power_cut
        mv "$work/console-$1.log" "$work/console-$1-hung.log"
        start_guest "$1"
        wait_report "$1" && return
    fi
    tr -d '\r' < "$work/console-$1.log" | tail -n 30; die "boot $1: no report from the guest"
}
start_guest() {
    qemu-system-x86_64 -accel tcg -m 1024 -smp 2 -nographic -no-reboot \
        -kernel "$cache/root/boot/vmlinuz-$kver" -initrd "$work/initramfs.gz" \
        -append "console=ttyS0 quiet loglevel=3 panic=-1 board.boot=$1 ${GUEST_APPEND:-}" \
        -drive "file=$work/disk.img,format=raw,if=virtio" \
        -virtfs "local,path=$out,mount_tag=out,security_model=none" \
        </dev/null > "$work/console-$1.log" 2>&1 &
    qemu=$!
}
# wait_report N: true once boot N has reported; false if the guest stopped, its kernel
# hung, or 240 s went by.
wait_report() {
    local t=0
    while [ ! -f "$out/boot-$1.journal" ] && kill -0 "$qemu" 2>/dev/null && [ $t -lt 2400 ]; do
        [ $((t % 50)) -eq 0 ] && kernel_hung "$1" && return 1
        sleep 0.1; t=$((t + 1))
    done
    [ -f "$out/boot-$1.journal" ]
}
# kernel_hung N: boot N's console shows soft lockups, none of them in the jukebox.
kernel_hung() {
    grep -aq 'soft lockup' "$work/console-$1.log" 2>/dev/null &&
        ! grep -a 'soft lockup' "$work/console-$1.log" | grep -q 'jukebox'
}
power_cut() { kill -9 "$qemu"; wait "$qemu" 2>/dev/null || true; qemu=""; }
