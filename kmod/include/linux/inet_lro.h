/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Large Receive Offload (TCP over IPv4 and IPv6): the driver API.
 *
 * This is Jan-Bernd Themann's 2007 inet_lro API, kept as it was and carried
 * to today's kernel. A driver fills in a struct net_lro_mgr, gives it an
 * array of max_desc zeroed descriptors, hands received TCP segments to
 * lro_receive_skb() (or, for page-based receive, lro_receive_frags()) and
 * calls lro_flush_all() at the end of its NAPI poll. Segments of one TCP
 * flow are coalesced into one GSO packet that the stack can forward or
 * re-segment (see Documentation/engine.md for the merge rules).
 *
 * Changes from 2007, kept source-compatible where the kernel allows:
 *  - struct vlan_group is gone from the kernel: the VLAN variants take the
 *    tag only (the 802.1Q protocol is implied) and deliver through
 *    __vlan_hwaccel_put_tag(); their vgrp argument is removed.
 *  - struct skb_frag_struct is now skb_frag_t.
 *  - Flows are found through a hash kept inside lro_arr, not by a linear
 *    scan; the driver still only allocates and zeroes the array.
 *  - struct net_lro_stats gains per-reason flush counters and packet/byte
 *    counters; aggregated/flushed/no_desc mean what they meant.
 *  - An optional deliver() hook lets a caller take finished packets instead
 *    of having them passed to netif_receive_skb()/netif_rx().
 *  - LRO_F_EVICT: with every descriptor busy, the oldest packet goes up and
 *    its descriptor takes the new flow (2007 passed the segment).
 *  - Each packet has its own max_aggr and hold, which a module wrapping
 *    the manager (lro.ko's rx_handler) may set through @ops.
 *  - Managers may share one descriptor array (@table): lro.ko keeps one
 *    per CPU for every device, and each device's @max_desc bounds what it
 *    holds of it.
 *
 * Out-of-tree users: add this directory to the include path and the
 * module's Module.symvers to KBUILD_EXTRA_SYMBOLS.
 */
#ifndef __INET_LRO_H_
#define __INET_LRO_H_

#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <linux/tcp.h>

struct lro_engine_ops;

/**
 * enum lro_flush_reason - why a descriptor's packet was sent up
 * @LRO_FLUSH_MAX_AGGR: it held max_aggr segments
 * @LRO_FLUSH_SIZE: one more segment would not fit (64 KB IP length, or
 *	MAX_SKB_FRAGS in page mode)
 * @LRO_FLUSH_SEQ: the next segment of the flow did not follow in sequence
 * @LRO_FLUSH_FLAGS: the next segment could not join: TCP flags, options,
 *	IP header fields, checksum, size
 * @LRO_FLUSH_PUSH: a segment with PSH, or shorter than the MSS, ended it
 * @LRO_FLUSH_BATCH: lro_flush_all() at the end of a receive batch
 * @LRO_FLUSH_TIMER: the hold timer expired
 * @LRO_FLUSH_DETACH: LRO was detached, reconfigured or the device went away
 * @LRO_FLUSH_PKT: lro_flush_pkt() asked for it
 * @LRO_FLUSH_EVICT: every descriptor was busy and this one was the oldest
 *	(only with the LRO_F_EVICT feature)
 * @LRO_FLUSH_MEM: the packets held took more than max_held_bytes; this one
 *	was the oldest
 * @LRO_FLUSH_NR: number of reasons
 */
enum lro_flush_reason {
	LRO_FLUSH_MAX_AGGR,
	LRO_FLUSH_SIZE,
	LRO_FLUSH_SEQ,
	LRO_FLUSH_FLAGS,
	LRO_FLUSH_PUSH,
	LRO_FLUSH_BATCH,
	LRO_FLUSH_TIMER,
	LRO_FLUSH_DETACH,
	LRO_FLUSH_PKT,
	LRO_FLUSH_EVICT,
	LRO_FLUSH_MEM,
	LRO_FLUSH_NR,
};

/**
 * struct net_lro_stats - LRO statistics of one manager
 * @aggregated: segments taken into a descriptor (started or joined one)
 * @flushed: packets sent up from descriptors. aggregated / flushed is the
 *	average number of segments per packet: how well LRO works.
 * @no_desc: segments that found every descriptor busy (passed up
 *	untouched, or, with LRO_F_EVICT, given the oldest descriptor)
 * @flush: @flushed broken down by enum lro_flush_reason
 * @pkts_in: segments offered to LRO
 * @bytes_in: bytes offered to LRO (network header onwards)
 * @pkts_out: packets sent up, aggregated or passed through
 * @bytes_out: bytes sent up
 * @held: segments held in descriptors right now
 * @held_bytes: memory they take right now (the truesize of the packets
 *	held)
 *
 * Counters are updated without atomics: a manager belongs to one context
 * (one NAPI instance, or one CPU), as in 2007.
 */
struct net_lro_stats {
	unsigned long aggregated;
	unsigned long flushed;
	unsigned long no_desc;
	unsigned long flush[LRO_FLUSH_NR];
	unsigned long pkts_in;
	unsigned long bytes_in;
	unsigned long pkts_out;
	unsigned long bytes_out;
	unsigned long held;
	unsigned long held_bytes;
};

/**
 * struct net_lro_desc - one TCP flow being aggregated
 * @parent: the packet being built: first segment, with the others chained
 *	on its frag_list (skb mode) or appended as page fragments (page mode)
 * @last_skb: last skb on @parent's frag_list
 * @iph: @parent's IPv4 header
 * @ip6h: @parent's IPv6 header, when @ipv6 is set
 * @tcph: @parent's TCP header
 * @node: position in the manager's list of active descriptors, oldest first
 * @start_ns: when the first segment was taken (ktime_get_ns())
 * @tcp_rcv_tsecr: TSecr of the flow (network order), if timestamps are used
 * @tcp_rcv_tsval: TSval of the flow (network order), if timestamps are used
 * @tcp_ack: ACK number of the flow (host order)
 * @tcp_next_seq: sequence number the next segment must carry (host order)
 * @hash: flow hash
 * @hash_next: 1 + index of the next descriptor in the same hash chain, or
 *	in the free list; 0 ends the chain
 * @bucket: 1 + index of the first descriptor of hash chain number <this
 *	descriptor's index>; 0 for an empty chain
 * @ifindex: device the flow arrived on
 * @ip_tot_len: bytes of @parent from its IP header on, so far: the IPv4
 *	total length, or the IPv6 header, extension headers and payload
 * @ip_id: IP ID of the first segment (host order)
 * @mss: payload length of the first segment: gso_size of the packet
 * @tcp_saw_tstamp: the flow carries the timestamp option
 * @tcp_window: window of the flow (network order)
 * @vlan_tag: VLAN tag of the flow (VLAN variants), 0 otherwise
 * @ip_fixedid: the flow keeps a fixed IP ID (decided by its second segment)
 * @ipv6: the flow is TCP over IPv6 (@ip6h, no IP ID)
 * @max_aggr: segments @parent may take: the manager's @max_aggr, unless
 *	the manager's @ops said otherwise when it was started
 * @hold_us: how long @parent may wait past its receive batch for more
 *	segments, as the manager's @ops said when it was started (0, and
 *	always without @ops: until lro_flush_all())
 * @pkt_aggr_cnt: segments held in @parent
 * @vlan_packet: the flow's packets carry a VLAN tag (hwaccel variants)
 * @active: the descriptor holds a packet
 * @mgr: the manager holding it (the array may be shared, see @table)
 *
 * Drivers only allocate and zero an array of these; its contents are LRO's.
 */
struct net_lro_desc {
	struct sk_buff *parent;
	struct sk_buff *last_skb;
	union {
		struct iphdr *iph;
		struct ipv6hdr *ip6h;
	};
	struct tcphdr *tcph;
	struct list_head node;
	u64 start_ns;
	__be32 tcp_rcv_tsecr;
	__be32 tcp_rcv_tsval;
	u32 tcp_ack;
	u32 tcp_next_seq;
	u32 hash;
	u32 hash_next;
	u32 bucket;
	int ifindex;
	u16 ip_tot_len;
	u16 ip_id;
	u16 mss;
	u16 tcp_saw_tstamp;
	__be16 tcp_window;
	u16 vlan_tag;
	u8 ip_fixedid;
	u8 ipv6;
	u32 max_aggr;
	u32 hold_us;
	int pkt_aggr_cnt;
	int vlan_packet;
	int active;
	struct net_lro_mgr *mgr;
};

/**
 * struct net_lro_mgr - Large Receive Offload manager
 * @dev: device the segments arrive on
 * @stats: statistics, see struct net_lro_stats
 * @features: LRO_F_* flags
 * @ip_summed: checksum state of segments built by lro_receive_frags():
 *	CHECKSUM_UNNECESSARY if the hardware verified them, CHECKSUM_COMPLETE
 *	if it passes a full checksum in the @sum argument, CHECKSUM_NONE if
 *	LRO must verify them
 * @max_desc: number of descriptors in @lro_arr: flows aggregated at once
 *	(with @table, the most this manager holds of @table's)
 * @max_aggr: segments aggregated into one packet at most
 * @max_held_bytes: memory the packets held may take (truesize, bytes);
 *	past it the oldest are sent up (LRO_FLUSH_MEM). 0: no limit, as in
 *	2007 (a driver that flushes at the end of each poll holds a poll's
 *	worth at most)
 * @lro_arr: @max_desc zeroed descriptors, owned by LRO while in use. To
 *	change @max_desc or @lro_arr, call lro_flush_all() first and hand
 *	over a zeroed array.
 * @get_skb_header: locate the IP and TCP headers of an skb; set
 *	LRO_IPV4 | LRO_TCP in @hdr_flags if it is IPv4/TCP, LRO_IPV6 | LRO_TCP
 *	if it is IPv6/TCP (@ip_hdr at the IPv6 header, @tcpudp_hdr after any
 *	extension headers). Non-zero return: not for LRO. May be NULL for
 *	skbs whose data starts at the IP header (LRO then parses them
 *	itself).
 * @get_frag_header: the same for page-mode receive, plus the MAC header
 * @deliver: optional; takes every packet LRO sends up instead of
 *	netif_receive_skb()/netif_rx() (extension to the 2007 API)
 * @ops: hooks of a module that wraps the manager (lro.ko's rx_handler:
 *	its hold timer and BPF policies); NULL for drivers
 * @table: optional; another manager whose @lro_arr and @max_desc this one
 *	takes its descriptors from, shared with others that do the same, all
 *	in one receive context (extension to the 2007 API). The table
 *	manager only lends: its own @nr_active counts what is lent; to
 *	change its array, flush every manager using it first. NULL: this
 *	manager's @lro_arr
 * @active: active descriptors, oldest first (LRO's)
 * @free_desc: 1 + index of the first free descriptor that was used before
 *	(LRO's)
 * @used_desc: descriptors [0, @used_desc) have been used (LRO's)
 * @nr_active: number of active descriptors (LRO's)
 */
struct net_lro_mgr {
	struct net_device *dev;
	struct net_lro_stats stats;

	unsigned long features;
#define LRO_F_NAPI            1  /* Pass packets to stack via NAPI */
#define LRO_F_EXTRACT_VLAN_ID 2  /* Set flag if VLAN IDs are extracted
				  * from received packets and eth protocol
				  * is still ETH_P_8021Q
				  */
#define LRO_F_EVICT           4  /* All descriptors busy: send the oldest
				  * packet up and reuse its descriptor,
				  * instead of passing the segment
				  * (extension to the 2007 API)
				  */

	u32 ip_summed;
	int max_desc;
	int max_aggr;
	unsigned long max_held_bytes;

	struct net_lro_desc *lro_arr;

	int (*get_skb_header)(struct sk_buff *skb, void **ip_hdr,
			      void **tcpudp_hdr, u64 *hdr_flags, void *priv);

	/* hdr_flags: */
#define LRO_IPV4 1 /* ip_hdr is IPv4 header */
#define LRO_TCP  2 /* tcpudp_hdr is TCP header */
#define LRO_IPV6 4 /* ip_hdr is IPv6 header (extension to the 2007 API) */

	int (*get_frag_header)(skb_frag_t *frag, void **mac_hdr,
			       void **ip_hdr, void **tcpudp_hdr, u64 *hdr_flags,
			       void *priv);

	void (*deliver)(struct net_lro_mgr *lro_mgr, struct sk_buff *skb);

	const struct lro_engine_ops *ops;
	struct net_lro_mgr *table;

	struct list_head active;
	u32 free_desc;
	u32 used_desc;
	u32 nr_active;
};

void lro_receive_skb(struct net_lro_mgr *lro_mgr, struct sk_buff *skb,
		     void *priv);

void lro_vlan_hwaccel_receive_skb(struct net_lro_mgr *lro_mgr,
				  struct sk_buff *skb, u16 vlan_tag,
				  void *priv);

void lro_receive_frags(struct net_lro_mgr *lro_mgr, skb_frag_t *frags,
		       int len, int true_size, void *priv, __wsum sum);

void lro_vlan_hwaccel_receive_frags(struct net_lro_mgr *lro_mgr,
				    skb_frag_t *frags, int len, int true_size,
				    u16 vlan_tag, void *priv, __wsum sum);

void lro_flush_all(struct net_lro_mgr *lro_mgr);

void lro_flush_pkt(struct net_lro_mgr *lro_mgr, struct iphdr *iph,
		   struct tcphdr *tcph);

#endif /* __INET_LRO_H_ */
