// SPDX-License-Identifier: GPL-2.0
/*
 * bind_probe: can a host application bind this TCP address and port?
 *
 *   bind_probe ADDR PORT [-d IFNAME] [-6 0|1]
 *
 * binds a TCP socket of ADDR's family (no SO_REUSEADDR), bound to IFNAME
 * first when given (SO_BINDTODEVICE), with IPV6_V6ONLY set as -6 says
 * (default: net.ipv6.bindv6only). Prints "bound" and exits 0, or prints
 * the errno's name ("EADDRINUSE") and exits 1; 2 for a usage error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_storage ss = { 0 };
	const char *dev = NULL;
	int v6only = -1, fd, opt, v6;
	socklen_t sl;

	while ((opt = getopt(argc, argv, "d:6:")) != -1) {
		if (opt == 'd')
			dev = optarg;
		else if (opt == '6')
			v6only = atoi(optarg);
		else
			goto usage;
	}
	if (argc - optind != 2)
		goto usage;
	v6 = !!strchr(argv[optind], ':');
	if (v6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(atoi(argv[optind + 1]));
		if (inet_pton(AF_INET6, argv[optind], &s6->sin6_addr) != 1)
			goto usage;
		sl = sizeof(*s6);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

		s4->sin_family = AF_INET;
		s4->sin_port = htons(atoi(argv[optind + 1]));
		if (inet_pton(AF_INET, argv[optind], &s4->sin_addr) != 1)
			goto usage;
		sl = sizeof(*s4);
	}
	fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
	if (fd < 0) {
		perror("socket");
		return 2;
	}
	if (dev && setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, dev, strlen(dev) + 1)) {
		perror("SO_BINDTODEVICE");
		return 2;
	}
	if (v6 && v6only >= 0 &&
	    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(v6only))) {
		perror("IPV6_V6ONLY");
		return 2;
	}
	if (bind(fd, (struct sockaddr *)&ss, sl)) {
		printf("%s\n", errno == EADDRINUSE ? "EADDRINUSE" : strerror(errno));
		return 1;
	}
	printf("bound\n");
	close(fd);
	return 0;
usage:
	fprintf(stderr, "usage: bind_probe ADDR PORT [-d IFNAME] [-6 0|1]\n");
	return 2;
}
