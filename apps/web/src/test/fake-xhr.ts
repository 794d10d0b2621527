/** XMLHttpRequest as the upload sees it: reports half the file sent, then answers `answer` when told. */
export class FakeXhr {
  static last: FakeXhr | undefined;
  static answer: { status: number; body: unknown } = { status: 200, body: {} };
  headers: Record<string, string> = {};
  method = '';
  url = '';
  body: unknown;
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  private finish: (() => void) | undefined;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(key: string, value: string) {
    this.headers[key.toLowerCase()] = value;
  }
  abort() {}
  send(body: unknown) {
    this.body = body;
    FakeXhr.last = this;
    this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
    this.finish = () => {
      this.status = FakeXhr.answer.status;
      this.responseText = JSON.stringify(FakeXhr.answer.body);
      this.onload?.();
    };
  }
  /** The server answers. */
  respond() {
    this.upload.onprogress?.({ lengthComputable: true, loaded: 100, total: 100 });
    this.finish?.();
  }
}
