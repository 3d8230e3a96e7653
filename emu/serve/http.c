/*
 * http.c - `mmemu serve` behind libevent's evhttp (see serve.h, serve_http()).
 *
 * Design: one evhttp on the caller's event base with one generic callback that
 * copies the request (method, URI, body) into serve_handle() and sends its
 * reply; the runs' sweep pools live on the same base, so a request is answered
 * between two simulation events.  Bodies: evhttp itself refuses bodies above
 * BODY_HARD_FACTOR x max_body (a bound on what it buffers); between max_body and
 * that, the handler answers 413 with the one-line error and the request is
 * logged like any other.  One log line per request on stderr: method, URI,
 * status, reply bytes, milliseconds, peer.  SIGINT and SIGTERM break the loop;
 * the caller then frees the server, which kills and reaps every worker.
 */
#include "emu/serve/serve_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "emu/engine/runner.h"

#define BODY_HARD_FACTOR 4

struct http_ctx {
	struct serve *s;
	const struct serve_cfg *cfg;
};

static const char *method_name(enum evhttp_cmd_type c)
{
	switch (c) {
	case EVHTTP_REQ_GET: return "GET";
	case EVHTTP_REQ_POST: return "POST";
	case EVHTTP_REQ_HEAD: return "HEAD";
	case EVHTTP_REQ_PUT: return "PUT";
	case EVHTTP_REQ_DELETE: return "DELETE";
	case EVHTTP_REQ_OPTIONS: return "OPTIONS";
	case EVHTTP_REQ_TRACE: return "TRACE";
	case EVHTTP_REQ_CONNECT: return "CONNECT";
	case EVHTTP_REQ_PATCH: return "PATCH";
	}
	return "?";
}

static void on_request(struct evhttp_request *req, void *arg)
{
	struct http_ctx *h = arg;
	double t0 = now_seconds();
	const char *method = method_name(evhttp_request_get_command(req));
	const char *uri = evhttp_request_get_uri(req);
	struct evbuffer *in = evhttp_request_get_input_buffer(req);
	size_t len = evbuffer_get_length(in);
	struct serve_reply r;
	if (len > h->cfg->max_body) {
		memset(&r, 0, sizeof r);
		reply_error(&r, 413, "request: expected a body of at most %zu bytes, got %zu", h->cfg->max_body,
			    len);
	} else {
		const char *body = len ? (const char *)evbuffer_pullup(in, -1) : "";
		serve_handle(h->s, method, uri, body, len, &r);
	}
	struct evkeyvalq *oh = evhttp_request_get_output_headers(req);
	evhttp_add_header(oh, "Content-Type", r.ctype ? r.ctype : "application/octet-stream");
	evhttp_add_header(oh, "Cache-Control", "no-store");
	evhttp_add_header(oh, "X-Content-Type-Options", "nosniff");
	struct evbuffer *out = evbuffer_new();
	if (out && r.len)
		evbuffer_add(out, r.body, r.len);
	evhttp_send_reply(req, r.status, NULL, out);
	if (!h->cfg->quiet) {
		char *peer = NULL;
		ev_uint16_t port = 0;
		struct evhttp_connection *c = evhttp_request_get_connection(req);
		if (c)
			evhttp_connection_get_peer(c, &peer, &port);
		fprintf(stderr, "%s %s %d %zu %.1fms %s\n", method, uri ? uri : "-", r.status, r.len,
			(now_seconds() - t0) * 1e3, peer ? peer : "-");
	}
	if (out)
		evbuffer_free(out);
	free(r.body);
}

static void on_stop(evutil_socket_t sig, short what, void *arg)
{
	fprintf(stderr, "mmemu serve: %s: stopping (cancelling runs, reaping workers)\n",
		sig == SIGINT ? "SIGINT" : "SIGTERM");
	event_base_loopbreak(arg);
}

/* Returns: 1 if @addr is a loopback address (127.0.0.0/8, ::1, localhost). */
static int loopback(const char *addr)
{
	struct in_addr a4;
	struct in6_addr a6;
	if (strcmp(addr, "localhost") == 0)
		return 1;
	if (inet_pton(AF_INET, addr, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	if (inet_pton(AF_INET6, addr, &a6) == 1)
		return IN6_IS_ADDR_LOOPBACK(&a6);
	return 0;
}

/* libevent's own messages (a failed getaddrinfo): kept for our one-line error
 * instead of printed as a second line. */
static char evlog[200];

static void on_evlog(int severity, const char *msg)
{
	snprintf(evlog, sizeof evlog, "%s", msg);
}

int serve_http(struct serve *s, struct event_base *base, const struct serve_cfg *cfg)
{
	event_set_log_callback(on_evlog);
	struct http_ctx h = { s, cfg };
	struct evhttp *http = evhttp_new(base);
	if (!http) {
		fprintf(stderr, "mmemu serve: cannot create the HTTP server\n");
		return 2;
	}
	evhttp_set_max_body_size(http, (ev_ssize_t)(cfg->max_body * BODY_HARD_FACTOR));
	evhttp_set_allowed_methods(http, EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_HEAD |
					 EVHTTP_REQ_DELETE | EVHTTP_REQ_PUT | EVHTTP_REQ_PATCH |
					 EVHTTP_REQ_OPTIONS);
	evhttp_set_timeout(http, 60);
	evhttp_set_gencb(http, on_request, &h);
	struct evhttp_bound_socket *bs = evhttp_bind_socket_with_handle(http, cfg->bind,
									(ev_uint16_t)cfg->port);
	if (!bs) {
		int err = errno;
		fprintf(stderr, "mmemu serve: --bind %s --port %d: cannot listen there (%s)\n", cfg->bind,
			cfg->port, *evlog ? evlog : strerror(err));
		evhttp_free(http);
		return 2;
	}
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;
	int port = cfg->port;
	char host[INET6_ADDRSTRLEN] = "";
	if (getsockname(evhttp_bound_socket_get_fd(bs), (struct sockaddr *)&ss, &sl) == 0) {
		if (ss.ss_family == AF_INET) {
			struct sockaddr_in *a = (struct sockaddr_in *)&ss;
			port = ntohs(a->sin_port);
			inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
		} else if (ss.ss_family == AF_INET6) {
			struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
			port = ntohs(a->sin6_port);
			inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
		}
	}
	int v6 = strchr(host, ':') != NULL;
	printf("mmemu serve: listening on http://%s%s%s:%d/ (%s)\n", v6 ? "[" : "",
	       *host ? host : cfg->bind, v6 ? "]" : "", port,
	       loopback(cfg->bind) ? "loopback only; --bind ADDR to serve other hosts"
				   : "reachable from other hosts: no authentication, trusted networks only");
	fflush(stdout);
	signal(SIGPIPE, SIG_IGN);
	struct event *si = evsignal_new(base, SIGINT, on_stop, base);
	struct event *st = evsignal_new(base, SIGTERM, on_stop, base);
	event_add(si, NULL);
	event_add(st, NULL);
	event_base_dispatch(base);
	event_free(si);
	event_free(st);
	evhttp_free(http);
	return 0;
}
