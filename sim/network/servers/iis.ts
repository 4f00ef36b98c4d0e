// The IIS default site of the servercore IIS image (the v1.9 guide's IIS pod): every GET
// gets iisstart.htm with IIS's headers; HEAD the headers only.

import { httpHandler, type SocketHandler } from './http.ts';

export const IIS_START_HTML = `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1" />
<title>IIS Windows Server</title>
<style type="text/css">
<!--
body {
	color:#000000;
	background-color:#0072C6;
	margin:0;
}

#container {
	margin-left:auto;
	margin-right:auto;
	text-align:center;
	}

a img {
	border:none;
}

-->
</style>
</head>
<body>
<div id="container">
<a href="http://go.microsoft.com/fwlink/?linkid=66138&amp;clcid=0x409"><img src="iisstart.png" alt="IIS" width="960" height="600" /></a>
</div>
</body>
</html>`;

export interface IisContext {
  podName: string;
}

export function iisServer(_ctx: IisContext): SocketHandler {
  const body = Buffer.from(IIS_START_HTML.replace(/\n/g, '\r\n'), 'latin1');
  return httpHandler((req, res) => {
    const path = (req.url ?? '/').split('?')[0].toLowerCase();
    res.setHeader('Server', 'Microsoft-IIS/10.0');
    res.setHeader('X-Powered-By', 'ASP.NET');
    if (path !== '/' && path !== '/iisstart.htm') {
      const nf =
        '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN">\r\n<html><head><title>404 - File or directory not found.</title></head><body><h2>404 - File or directory not found.</h2></body></html>';
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end(req.method === 'HEAD' ? undefined : nf);
      return;
    }
    res.writeHead(200, {
      'Content-Type': 'text/html',
      'Accept-Ranges': 'bytes',
      'Content-Length': body.length,
      'Last-Modified': 'Tue, 13 Jun 2023 20:08:09 GMT',
      ETag: '"1d99e3c2a3fd91a:0"',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
}
