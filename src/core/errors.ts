/**
 * Typed errors with stable codes, rendered in one place (api/plugins/error-handler.ts)
 * in the reference's body shapes: `{detail}`, `{field: [messages]}` or a list of those.
 */

/** Every error code the service emits, with its HTTP status and what it means. */
export const ERROR_CODES = {
  INV_ERR_VALIDATION: { status: 400, doc: 'request body or parameters failed validation; body names the fields' },
  INV_ERR_BAD_REQUEST: { status: 400, doc: 'malformed request (JSON parse error, version mismatch, bad depth)' },
  INV_ERR_NOT_AUTHENTICATED: { status: 403, doc: 'no or invalid credentials (the reference never answers 401)' },
  INV_ERR_PERMISSION_DENIED: { status: 403, doc: 'authenticated but not allowed to perform the action' },
  INV_ERR_NOT_FOUND: { status: 404, doc: 'object, path or format not found' },
  INV_ERR_METHOD_NOT_ALLOWED: { status: 405, doc: 'HTTP method not supported on this endpoint' },
  INV_ERR_NOT_ACCEPTABLE: { status: 406, doc: 'Accept header cannot be satisfied or names an unsupported version' },
  INV_ERR_CONFLICT: { status: 409, doc: 'delete blocked by dependent objects' },
  INV_ERR_TOO_LARGE: { status: 413, doc: 'request body over a configured limit (MAX_BODY_MB, MAX_BULK_ITEMS, MAX_CSV_ROWS)' },
  INV_ERR_UNSUPPORTED_MEDIA: { status: 415, doc: 'request Content-Type not supported' },
  INV_ERR_UNAVAILABLE: { status: 503, doc: 'the database cancelled a statement past STATEMENT_TIMEOUT_MS, or a write lost to concurrent writes three times: send it again' },
  INV_ERR_INTERNAL: { status: 500, doc: 'unexpected server error' },
  INV_ERR_TRANSACTION_ESCAPE: { status: 500, doc: 'a defect: code inside a transaction asked the root handle for another connection (db/dialects/transaction-guard.ts)' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** A body in one of the reference's shapes. */
export type ErrorBody = { detail: string } | Record<string, unknown> | unknown[];

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly body: ErrorBody;
  /** Extra response headers (e.g. `Allow`). */
  readonly headers: Record<string, string>;
  /** False for errors built outside the versioned API wrapper (no API-Version header). */
  readonly versioned: boolean;

  constructor(opts: { code: ErrorCode; body: ErrorBody; headers?: Record<string, string>; versioned?: boolean }) {
    super(typeof (opts.body as { detail?: unknown }).detail === 'string' ? (opts.body as { detail: string }).detail : opts.code);
    this.code = opts.code;
    this.status = ERROR_CODES[opts.code].status;
    this.body = opts.body;
    this.headers = opts.headers ?? {};
    this.versioned = opts.versioned ?? true;
  }
}

/** Field -> messages. Use `non_field_errors` or `__all__` for object-level messages. */
export type FieldErrors = Record<string, unknown>;

export class ValidationError extends AppError {
  readonly fields: FieldErrors | unknown[];
  constructor(fields: FieldErrors | unknown[]) {
    super({ code: 'INV_ERR_VALIDATION', body: fields as ErrorBody });
    this.fields = fields;
  }
  /** One message for one field. */
  static field(name: string, message: string): ValidationError {
    return new ValidationError({ [name]: [message] });
  }
}

export class BadRequestError extends AppError {
  constructor(detail: string, opts: { versioned?: boolean } = {}) {
    super({ code: 'INV_ERR_BAD_REQUEST', body: { detail }, versioned: opts.versioned });
  }
}

export class NotFoundError extends AppError {
  constructor(detail = 'Not found.', opts: { versioned?: boolean } = {}) {
    super({ code: 'INV_ERR_NOT_FOUND', body: { detail }, versioned: opts.versioned });
  }
}

export class NotAuthenticatedError extends AppError {
  constructor(detail = 'Authentication credentials were not provided.') {
    super({ code: 'INV_ERR_NOT_AUTHENTICATED', body: { detail } });
  }
}

export class PermissionDeniedError extends AppError {
  constructor(detail = 'You do not have permission to perform this action.') {
    super({ code: 'INV_ERR_PERMISSION_DENIED', body: { detail } });
  }
}

export class MethodNotAllowedError extends AppError {
  /** `detail` replaces DRF's default text, as a view raising `MethodNotAllowed(method, detail=...)` does. */
  constructor(method: string, allow: string, detail?: string) {
    super({ code: 'INV_ERR_METHOD_NOT_ALLOWED', body: { detail: detail ?? `Method "${method}" not allowed.` }, headers: { Allow: allow } });
  }
}

export class NotAcceptableError extends AppError {
  constructor(detail = 'Could not satisfy the request Accept header.', opts: { versioned?: boolean } = {}) {
    super({ code: 'INV_ERR_NOT_ACCEPTABLE', body: { detail }, versioned: opts.versioned });
  }
}

/** Protected delete: the reference answers 409 outside its versioned wrapper. */
export class ConflictError extends AppError {
  constructor(detail: string) {
    super({ code: 'INV_ERR_CONFLICT', body: { detail }, versioned: false });
  }
}

/** A body over one of the deployment's request limits (README, Configuration). */
export class PayloadTooLargeError extends AppError {
  constructor(detail: string) {
    super({ code: 'INV_ERR_TOO_LARGE', body: { detail } });
  }
}

/** The database cancelled the request's work (statement timeout, repeated write conflicts): the client may send it again. */
export class UnavailableError extends AppError {
  constructor(detail: string) {
    super({ code: 'INV_ERR_UNAVAILABLE', body: { detail } });
  }
}

export class UnsupportedMediaError extends AppError {
  constructor(contentType: string) {
    super({ code: 'INV_ERR_UNSUPPORTED_MEDIA', body: { detail: `Unsupported media type "${contentType}" in request.` } });
  }
}

/**
 * Code running inside a transaction asked the root database handle for a connection: on SQLite
 * it would wait forever for the transaction that waits for it; on PostgreSQL it would take a
 * second pooled connection. Always a defect (see db/dialects/transaction-guard.ts).
 */
export class TransactionEscapeError extends AppError {
  constructor() {
    super({ code: 'INV_ERR_TRANSACTION_ESCAPE', body: { detail: 'Internal error: a statement inside a transaction used another database connection.' } });
  }
}
