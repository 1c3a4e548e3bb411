"""Threaded HTTPS servers (TLS handshake in the worker thread) and a health-only endpoint."""
import http.server
import socket
import ssl
import threading


class ThreadedTLSServer(http.server.ThreadingHTTPServer):
    """An HTTPServer that accepts TCP connections and does each TLS handshake in its own thread."""
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address, handler, context):
        self.tls_context = context
        family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        self.address_family = family
        super().__init__(address, handler)

    def process_request_thread(self, request, client_address):
        try:
            request.settimeout(30)
            tls = self.tls_context.wrap_socket(request, server_side=True)
        except (ssl.SSLError, OSError):
            self.shutdown_request(request)
            return
        super().process_request_thread(tls, client_address)


def serve_in_threads(addresses, handler, context):
    """Starts one server per (host, port); returns the servers (call stop_all to end them)."""
    servers = []
    for address in addresses:
        server = ThreadedTLSServer(address, handler, context)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
    return servers


def stop_all(servers):
    for server in servers:
        server.shutdown()
        server.server_close()


def server_context(cert_file, key_file, client_ca=None):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    if client_ca:
        context.load_verify_locations(client_ca)
        context.verify_mode = ssl.CERT_OPTIONAL
    return context


class HealthHandler(http.server.BaseHTTPRequestHandler):
    """Answers GET /healthz, /livez and /readyz with "ok"; 404 otherwise."""
    protocol_version = "HTTP/1.1"
    paths = ("/healthz", "/livez", "/readyz")

    def do_GET(self):
        path = self.path.split("?")[0]
        ok = path in self.paths or any(path.startswith(p + "/") for p in self.paths)
        body = b"ok" if ok else b"404 page not found\n"
        self.send_response(200 if ok else 404)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, fmt, *args):
        pass
