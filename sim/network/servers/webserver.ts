// agnhost test-webserver (a file server rooted at /, FEATURES "test-webserver") and
// the nginx default page, for Linux helper pods.

import { httpHandler, type SocketHandler } from './http.ts';

export const NGINX_WELCOME = `<!DOCTYPE html>
<html>
<head>
<title>Welcome to nginx!</title>
</head>
<body>
<h1>Welcome to nginx!</h1>
<p>If you see this page, the nginx web server is successfully installed and
working. Further configuration is required.</p>
<p><em>Thank you for using nginx.</em></p>
</body>
</html>
`;

export interface WebserverContext {
  podName: string;
  /** Reads a file of the container (test-webserver serves the file system); undefined = missing. */
  readFile?(path: string): Buffer | undefined;
}

/** agnhost test-webserver: GET /path serves that file; / lists nothing but answers 200. */
export function testWebserver(ctx: WebserverContext): SocketHandler {
  return httpHandler((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<pre>\n</pre>\n');
      return;
    }
    const data = ctx.readFile?.(path);
    if (!data) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('404 page not found\n');
      return;
    }
    res.writeHead(200, { 'Content-Length': data.length });
    res.end(data);
  });
}

export function nginxServer(_ctx: { podName: string }): SocketHandler {
  return httpHandler((req, res) => {
    res.setHeader('Server', 'nginx/1.27.0');
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path !== '/' && path !== '/index.html') {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end(
        '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx/1.27.0</center>\r\n</body>\r\n</html>\r\n',
      );
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(req.method === 'HEAD' ? undefined : NGINX_WELCOME);
  });
}
