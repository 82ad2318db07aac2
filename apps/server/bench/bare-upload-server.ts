import { createWriteStream } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

// The baseline for bench:media: plain Node HTTP piping a request body into a file, nothing else.
const dir = process.env.BARE_DIR!;
let n = 0;
http
  .createServer(async (req, res) => {
    await pipeline(req, createWriteStream(path.join(dir, `bare-${n++}`)));
    res.writeHead(204, { 'upload-offset': req.headers['content-length'] ?? '0' }).end();
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGINT', () => process.exit(0));
