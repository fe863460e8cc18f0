#!/bin/sh
# /bin/workload WORKDEV NIC - the representative workload of the evidence
# VM (tests/evidence/init.sh runs it traced): ext4 on the virtio-blk "work"
# disk, tmpfs, loopback TCP/UDP, the virtio-net NIC pinging the user-mode
# gateway, AF_ALG sha256 + cbc(aes), fork/exec and pipes. A script of its
# own so that trace-cmd can run it as its command.
WDEV=$1
NIC=$2
# ext4 on the virtio-blk "work" disk
mount -t ext4 "$WDEV" /mnt/work
mkdir -p /mnt/work/data/sub
dd if=/dev/zero of=/mnt/work/data/zero bs=64k count=64 conv=fsync
dd if=/dev/urandom of=/mnt/work/data/rand bs=4k count=64 conv=fsync
i=0
while [ $i -lt 16 ]; do
	echo "file $i $(date)" > /mnt/work/data/sub/f$i
	i=$((i + 1))
done
sync -f /mnt/work/data/sub/f0
mv /mnt/work/data/sub/f0 /mnt/work/data/sub/renamed
ln -s renamed /mnt/work/data/sub/link
rm /mnt/work/data/sub/f1
ls -lR /mnt/work
cat /mnt/work/data/sub/* > /dev/null
dd if=/mnt/work/data/zero of=/dev/null bs=64k iflag=direct
md5sum /mnt/work/data/rand
df /mnt/work
sync

# tmpfs
mount -t tmpfs -o size=64m tmpfs /mnt/tmp
dd if=/dev/zero of=/mnt/tmp/zero bs=64k count=32
cp /mnt/work/data/rand /mnt/tmp/rand
cmp /mnt/work/data/rand /mnt/tmp/rand && echo tmpfs-copy-ok
rm /mnt/tmp/zero

# networking: loopback, then the virtio NIC with user-mode networking
ip link set lo up
/bin/tcploop 5555 1048576
if [ -n "$NIC" ]; then
	ip link set "$NIC" up
	ip addr add 10.0.2.15/24 dev "$NIC"
	ip route add default via 10.0.2.2
	ping -c 2 -i 0.5 -W 3 10.0.2.2
	ping -c 1 -W 2 10.0.2.15
	ip link show "$NIC"
	ip addr show "$NIC"
	echo "rx_packets $(cat /sys/class/net/$NIC/statistics/rx_packets)" \
		"tx_packets $(cat /sys/class/net/$NIC/statistics/tx_packets)"
fi

# crypto through AF_ALG (loads af_alg, algif_hash, algif_skcipher)
/bin/afalg 4

# process activity: fork/exec and pipes
seq 1 3000 | sort -r | md5sum
i=0
while [ $i -lt 8 ]; do
	sh -c 'echo $$ | cat > /dev/null'
	i=$((i + 1))
done
echo 'done' | tr a-z A-Z
