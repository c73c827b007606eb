/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lro_fuzz's connections: the listening sockets, the handshakes, the
 * ACKs that come back, the accepted sockets read, and the streams
 * completed at the end.
 */
#ifndef _LRO_FUZZ_CONN_H
#define _LRO_FUZZ_CONN_H

void conn_listen(void);
void connect_all(double timeout);
void rx_poll(void);
void sock_poll(void);
void complete_all(double secs);
void close_all(void);

#endif
