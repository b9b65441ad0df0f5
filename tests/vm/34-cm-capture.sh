# SPDX-License-Identifier: GPL-2.0
# A capture on the veth of madcm's exchanges with Linux TCP peers: MPA
# revision 1 and 2 requests and replies both ways and a reject. The VM
# prints the capture; tests/vm/run.sh hands it to tshark on the host
# (tests/vm/lib/check-capture.sh), whose MPA dissector and TCP analysis
# judge madcm's frames.
. /tests/common.sh

modprobe madcm_cm_ctl || { echo "modprobe madcm_cm_ctl failed"; exit 1; }
setup_netns_pair
check "attach" cm a attach veth0 time_wait_ms=500
capture_start b veth1 60 /tmp/cm.pcap
sleep 0.5

in_ns b mpa_peer server 5100 -r 2 -p 01020304 -t 15 >/tmp/s1.log 2>&1 &
sleep 0.3
check "connect rev 2" cm a connect veth0 k1 192.0.2.1 192.0.2.2 5100 rev=2 pdata=aabbccdd
check "k1 established" wait_event k1 ESTABLISHED
check "k1 close" cm a close k1
check "k1 closed" wait_event k1 CLOSE
wait %2 2>/dev/null

in_ns b mpa_peer server 5101 -r 1 -p 05 -c -t 15 >/tmp/s2.log 2>&1 &
sleep 0.3
check "connect rev 1" cm a connect veth0 k2 192.0.2.1 192.0.2.2 5101 rev=1 pdata=06
check "k2 closed by the peer" wait_event k2 CLOSE

check "listen" cm a listen veth0 K 0.0.0.0 6300 policy=accept pdata=0708
check "client rev 2" in_ns b mpa_peer client 192.0.2.1 6300 -r 2 -p 090a -c -t 15
check "K.0 closed" wait_event K.0 CLOSE
check "listen reject" cm a listen veth0 R 0.0.0.0 6301 policy=reject pdata=0b
in_ns b mpa_peer client 192.0.2.1 6301 -r 1 -t 15
check "R.0 closed" wait_event R.0 CLOSE
sleep 1

capture_stop
check "capture written" [ -s /tmp/cm.pcap ]
echo "=== PCAP cm-capture"
od -An -v -tx1 /tmp/cm.pcap | tr -d ' \n' | fold -w 1024
echo
echo "=== PCAP END"
check "detach" cm a detach veth0
teardown_netns_pair
check "rmmod madcm_cm_ctl madcm" rmmod madcm_cm_ctl madcm
finish
