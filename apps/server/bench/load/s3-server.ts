/** s3rver (the S3 protocol server the adapter's tests use) as its own process: `s3-server.ts DIR PORT BUCKET`. */
import S3rver from 's3rver';
import './s3rver-atomic.ts';

const [dir, port, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(port),
  silent: true,
  directory: dir,
  configureBuckets: [{ name: bucket }],
});
await server.run();
process.stdout.write(`s3rver listening on 127.0.0.1:${port}\n`);
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
