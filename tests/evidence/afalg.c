/* afalg: a small crypto user for the evidence-recording VM.
 *
 * Hashes a buffer with sha256 and encrypts it with cbc(aes) through the
 * kernel's AF_ALG socket interface, so the kernel loads af_alg, algif_hash
 * and algif_skcipher (and whatever implements the algorithms) on demand and
 * /proc/crypto shows them in use.  Prints the digest and a ciphertext digest.
 * Built static by tests/evidence/record-vm.sh; runs inside the guest only.
 */
#include <linux/if_alg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

static int alg_open(const char *type, const char *name, const void *key,
                    unsigned keylen)
{
	struct sockaddr_alg sa;
	int tfm, op;

	memset(&sa, 0, sizeof sa);
	sa.salg_family = AF_ALG;
	strncpy((char *)sa.salg_type, type, sizeof sa.salg_type - 1);
	strncpy((char *)sa.salg_name, name, sizeof sa.salg_name - 1);
	tfm = socket(AF_ALG, SOCK_SEQPACKET, 0);
	if (tfm < 0) {
		perror("socket(AF_ALG)");
		exit(1);
	}
	if (bind(tfm, (struct sockaddr *)&sa, sizeof sa) < 0) {
		fprintf(stderr, "bind %s %s: ", type, name);
		perror("");
		exit(1);
	}
	if (key && setsockopt(tfm, SOL_ALG, ALG_SET_KEY, key, keylen) < 0) {
		perror("ALG_SET_KEY");
		exit(1);
	}
	op = accept(tfm, NULL, 0);
	if (op < 0) {
		perror("accept");
		exit(1);
	}
	close(tfm);
	return op;
}

static void hex(const char *label, const unsigned char *p, unsigned n)
{
	printf("%s ", label);
	while (n--)
		printf("%02x", *p++);
	printf("\n");
}

int main(int argc, char **argv)
{
	static unsigned char buf[65536], out[65536];
	unsigned char digest[32], key[16], iv[16];
	int rounds = argc > 1 ? atoi(argv[1]) : 16;
	int op, i;

	for (i = 0; i < (int)sizeof buf; i++)
		buf[i] = (unsigned char)(i * 31 + 7);
	for (i = 0; i < 16; i++) {
		key[i] = (unsigned char)i;
		iv[i] = (unsigned char)(0xa0 + i);
	}

	/* sha256 over rounds * 64 KiB, streamed with MSG_MORE */
	op = alg_open("hash", "sha256", NULL, 0);
	for (i = 0; i < rounds; i++)
		if (send(op, buf, sizeof buf, i + 1 < rounds ? MSG_MORE : 0) !=
		    (ssize_t)sizeof buf) {
			perror("send hash");
			return 1;
		}
	if (read(op, digest, sizeof digest) != (ssize_t)sizeof digest) {
		perror("read digest");
		return 1;
	}
	close(op);
	hex("sha256", digest, sizeof digest);

	/* cbc(aes) encryption of 64 KiB, rounds times */
	op = alg_open("skcipher", "cbc(aes)", key, sizeof key);
	for (i = 0; i < rounds; i++) {
		char cbuf[CMSG_SPACE(sizeof(__u32)) +
			  CMSG_SPACE(sizeof(struct af_alg_iv) + 16)];
		struct msghdr msg;
		struct cmsghdr *c;
		struct af_alg_iv *aiv;
		struct iovec iov = { buf, sizeof buf };

		memset(cbuf, 0, sizeof cbuf);
		memset(&msg, 0, sizeof msg);
		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof cbuf;
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_OP;
		c->cmsg_len = CMSG_LEN(sizeof(__u32));
		*(__u32 *)CMSG_DATA(c) = ALG_OP_ENCRYPT;
		c = CMSG_NXTHDR(&msg, c);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_IV;
		c->cmsg_len = CMSG_LEN(sizeof(struct af_alg_iv) + 16);
		aiv = (struct af_alg_iv *)CMSG_DATA(c);
		aiv->ivlen = 16;
		memcpy(aiv->iv, iv, 16);
		if (sendmsg(op, &msg, 0) != (ssize_t)sizeof buf) {
			perror("sendmsg skcipher");
			return 1;
		}
		if (read(op, out, sizeof out) != (ssize_t)sizeof out) {
			perror("read ciphertext");
			return 1;
		}
	}
	close(op);
	hex("cbc(aes) last block", out + sizeof out - 16, 16);
	return 0;
}
