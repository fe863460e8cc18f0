/* tcploop: TCP traffic over the loopback interface for the evidence VM.
 *
 * Listens on 127.0.0.1:PORT, forks a client that connects and sends
 * BYTES bytes, and has the server read them all, echo a short reply and
 * check the byte count.  Also sends one UDP datagram to itself.  Built
 * static by tests/evidence/record-vm.sh; runs inside the guest only.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

int main(int argc, char **argv)
{
	int port = argc > 1 ? atoi(argv[1]) : 5555;
	long bytes = argc > 2 ? atol(argv[2]) : 1 << 20;
	struct sockaddr_in sa;
	static char buf[16384];
	int ls, one = 1, status;
	long got = 0;
	pid_t pid;

	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_port = htons(port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

	ls = socket(AF_INET, SOCK_STREAM, 0);
	if (ls < 0)
		die("socket");
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (bind(ls, (struct sockaddr *)&sa, sizeof sa) < 0)
		die("bind");
	if (listen(ls, 4) < 0)
		die("listen");

	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		long sent = 0;
		int c = socket(AF_INET, SOCK_STREAM, 0);
		char reply[8];

		close(ls);
		if (c < 0 || connect(c, (struct sockaddr *)&sa, sizeof sa) < 0)
			die("connect");
		setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		memset(buf, 'k', sizeof buf);
		while (sent < bytes) {
			long n = bytes - sent < (long)sizeof buf ?
					 bytes - sent : (long)sizeof buf;
			ssize_t w = write(c, buf, n);
			if (w <= 0)
				die("write");
			sent += w;
		}
		shutdown(c, SHUT_WR);
		if (read(c, reply, sizeof reply) != 2)
			die("read reply");
		close(c);
		_exit(0);
	} else {
		int s = accept(ls, NULL, NULL);
		ssize_t r;

		if (s < 0)
			die("accept");
		while ((r = read(s, buf, sizeof buf)) > 0)
			got += r;
		if (write(s, "ok", 2) != 2)
			die("write reply");
		close(s);
		close(ls);
		if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			return 1;
	}

	/* one UDP datagram to ourselves */
	{
		int u = socket(AF_INET, SOCK_DGRAM, 0);
		char d[64];

		if (u < 0 || bind(u, (struct sockaddr *)&sa, sizeof sa) < 0)
			die("udp bind");
		if (sendto(u, "ping", 4, 0, (struct sockaddr *)&sa, sizeof sa) != 4)
			die("udp sendto");
		if (recv(u, d, sizeof d, 0) != 4)
			die("udp recv");
		close(u);
	}
	printf("tcploop: %ld of %ld bytes over 127.0.0.1:%d, udp ok\n", got,
	       bytes, port);
	return got == bytes ? 0 : 1;
}
