import http from 'node:http';

/** One request as the receiver got it. */
export type Received = { method: string; url: string; headers: http.IncomingHttpHeaders; raw: Buffer; json: any };

/**
 * A webhook receiver on 127.0.0.1 (`port`, by default one the system picks, known after `listen()`): records every request and answers with what `answer`
 * returns for it (default 200; `null` leaves the request hanging). `next(n)` resolves once `n`
 * requests (in all) have arrived.
 */
export class Receiver {
  readonly received: Received[] = [];
  answer: (req: Received, index: number) => number | null = () => 200;
  private readonly server: http.Server;
  private waiters: { n: number; resolve: () => void }[] = [];
  private readonly hanging = new Set<http.ServerResponse>();

  constructor(private readonly wantedPort = 0) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        let json: unknown;
        try { json = JSON.parse(raw.toString('utf8')); } catch { json = undefined; }
        const got: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, raw, json };
        const status = this.answer(got, this.received.length);
        this.received.push(got);
        if (status === null) this.hanging.add(res);
        else res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 400 ? 'ok' : 'nope');
        this.waiters = this.waiters.filter((w) => (this.received.length >= w.n ? (w.resolve(), false) : true));
      });
    });
  }

  /** The port it listens on (after `listen()`). */
  get port(): number {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : this.wantedPort;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  listen(): Promise<void> {
    return new Promise((resolve) => this.server.listen(this.wantedPort, '127.0.0.1', resolve));
  }

  /** Resolves when `n` requests have arrived in all. */
  next(n: number): Promise<void> {
    if (this.received.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ n, resolve }));
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
