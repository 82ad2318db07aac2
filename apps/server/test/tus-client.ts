import http from 'node:http';

/** A minimal tus 1.0 client over real HTTP (creation, PATCH, HEAD), enough to prove the protocol. */
export function tusClient(base: string, token: string) {
  const auth = { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' };
  return {
    async create(size: number, name: string): Promise<{ status: number; location: string }> {
      const res = await fetch(`${base}/v1/uploads/tus`, {
        method: 'POST',
        headers: {
          ...auth,
          'upload-length': String(size),
          'upload-metadata': `filename ${Buffer.from(name).toString('base64')},filetype ${Buffer.from('application/octet-stream').toString('base64')}`,
        },
      });
      await res.arrayBuffer();
      return { status: res.status, location: res.headers.get('location') ?? '' };
    },
    async head(location: string): Promise<{ status: number; offset: number; length: number }> {
      const res = await fetch(`${base}${location}`, { method: 'HEAD', headers: auth });
      return {
        status: res.status,
        offset: Number(res.headers.get('upload-offset') ?? -1),
        length: Number(res.headers.get('upload-length') ?? -1),
      };
    },
    async patch(
      location: string,
      offset: number,
      bytes: Buffer,
    ): Promise<{ status: number; offset: number }> {
      const res = await fetch(`${base}${location}`, {
        method: 'PATCH',
        headers: {
          ...auth,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        body: new Uint8Array(bytes),
      });
      await res.arrayBuffer();
      return { status: res.status, offset: Number(res.headers.get('upload-offset') ?? -1) };
    },
    async remove(location: string): Promise<number> {
      const res = await fetch(`${base}${location}`, { method: 'DELETE', headers: auth });
      await res.arrayBuffer();
      return res.status;
    },
    /**
     * Starts a PATCH announcing all of `bytes`, sends only the first `sent` bytes, waits until
     * `received()` reports the server has them, then breaks the connection.
     */
    async brokenPatch(
      location: string,
      offset: number,
      bytes: Buffer,
      sent: number,
      received: () => Promise<boolean>,
    ): Promise<void> {
      const url = new URL(`${base}${location}`);
      const req = http.request({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'PATCH',
        headers: {
          ...auth,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
          'content-length': String(bytes.length),
        },
      });
      req.on('error', () => {});
      req.write(bytes.subarray(0, sent));
      for (let i = 0; i < 500 && !(await received()); i++) await new Promise((r) => setTimeout(r, 10));
      req.destroy();
    },
    /** Uploads a whole buffer in one creation + PATCH; returns the upload URL. */
    async upload(bytes: Buffer, name: string): Promise<string> {
      const { status, location } = await this.create(bytes.length, name);
      if (status !== 201) throw new Error(`tus create answered ${status}`);
      if (bytes.length > 0) {
        const res = await this.patch(location, 0, bytes);
        if (res.status !== 204) throw new Error(`tus PATCH answered ${res.status}`);
      }
      return location;
    },
  };
}
