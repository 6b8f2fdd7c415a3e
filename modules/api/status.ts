/** Kubernetes `Status` errors. Every failure the server reports is one of these (ARCHITECTURE.md, "Module rules"). */

export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Expired'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'Invalid'
  | 'TooManyRequests'
  | 'InternalError'
  | 'Timeout'
  | 'ServiceUnavailable'
  /** KEP-3926: a list met objects storage could not read (500) */
  | 'StorageReadError'
  | '';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** A group/resource pair as kube names it in messages: `configmaps` or `leases.coordination.k8s.io`. */
export interface GroupResource {
  group: string;
  resource: string;
}

export function qualifiedResource(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  toStatus(): Status {
    const status: Status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    if (this.details) status.details = this.details;
    if (!this.reason) delete status.reason;
    return status;
  }

  static badRequest(message: string, causes?: StatusCause[]): ApiError {
    return new ApiError(400, 'BadRequest', message, causes ? { causes } : undefined);
  }

  static unauthorized(message = 'Unauthorized'): ApiError {
    return new ApiError(401, 'Unauthorized', message);
  }

  static forbidden(message: string, gr?: GroupResource, name?: string): ApiError {
    return new ApiError(
      403,
      'Forbidden',
      message,
      gr ? { name, group: gr.group || undefined, kind: gr.resource } : undefined,
    );
  }

  static notFound(gr: GroupResource, name: string): ApiError {
    return new ApiError(404, 'NotFound', `${qualifiedResource(gr)} "${name}" not found`, {
      name,
      group: gr.group || undefined,
      kind: gr.resource,
    });
  }

  /** 404 for a path the server does not serve; kube answers these with a bare message. */
  static pathNotFound(message = 'the server could not find the requested resource'): ApiError {
    return new ApiError(404, 'NotFound', message, {});
  }

  static methodNotAllowed(message: string): ApiError {
    return new ApiError(405, 'MethodNotAllowed', message, {});
  }

  static notAcceptable(supported: string[]): ApiError {
    return new ApiError(
      406,
      'NotAcceptable',
      `only the following media types are accepted: ${supported.join(', ')}`,
    );
  }

  static alreadyExists(gr: GroupResource, name: string): ApiError {
    return new ApiError(409, 'AlreadyExists', `${qualifiedResource(gr)} "${name}" already exists`, {
      name,
      group: gr.group || undefined,
      kind: gr.resource,
    });
  }

  static conflict(gr: GroupResource, name: string, why: string): ApiError {
    return new ApiError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualifiedResource(gr)} "${name}": ${why}`,
      { name, group: gr.group || undefined, kind: gr.resource },
    );
  }

  static gone(message: string): ApiError {
    return new ApiError(410, 'Expired', message);
  }

  static tooLarge(message = 'the request is too large'): ApiError {
    return new ApiError(413, 'RequestEntityTooLarge', message);
  }

  static unsupportedMediaType(supported: string[]): ApiError {
    return new ApiError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${supported.join(', ')}`,
    );
  }

  /** 422: `<Kind> "<name>" is invalid: <field>: <message>, ...` with one cause per field error. */
  static invalid(kind: string, group: string, name: string, errors: FieldError[]): ApiError {
    const summary = errors.map(formatFieldError);
    const message =
      summary.length === 1
        ? `${kind} "${name}" is invalid: ${summary[0]}`
        : `${kind} "${name}" is invalid: [${summary.join(', ')}]`;
    return new ApiError(422, 'Invalid', message, {
      name,
      group: group || undefined,
      kind,
      causes: errors.map((e) => ({
        reason: e.type === 'InternalError' ? e.type : `FieldValue${e.type}`,
        message: formatCauseMessage(e),
        field: e.field,
      })),
    });
  }

  static internal(message: string): ApiError {
    return new ApiError(500, 'InternalError', `Internal error occurred: ${message}`, {
      causes: [{ message }],
    });
  }

  static timeout(message: string, retryAfterSeconds: number): ApiError {
    return new ApiError(
      504,
      'Timeout',
      message,
      { retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }

  /** 503; with `retryAfterSeconds`, kube's Retry-After header and details.retryAfterSeconds */
  static unavailable(message: string, retryAfterSeconds?: number): ApiError {
    if (retryAfterSeconds === undefined) return new ApiError(503, 'ServiceUnavailable', message);
    return new ApiError(
      503,
      'ServiceUnavailable',
      message,
      { retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

/** One field validation failure; `type` follows kube's field.ErrorType names. */
export interface FieldError {
  type:
    | 'Required'
    | 'Invalid'
    | 'Forbidden'
    | 'TooLong'
    | 'TooMany'
    | 'NotSupported'
    | 'Duplicate'
    | 'TypeInvalid'
    | 'NotFound'
    | 'InternalError';
  field: string;
  /** the offending value, shown as kube shows it (strings quoted) */
  value?: unknown;
  /**
   * The value exactly as kube prints it, when plain JSON would differ: an unstructured map or list is printed
   * by Go as `map[string]interface {}{"name":"a"}`, a float as `1e+06`. Wins over `value` in messages.
   */
  valueText?: string;
  detail?: string;
}

const typeText: Record<FieldError['type'], string> = {
  Required: 'Required value',
  Invalid: 'Invalid value',
  Forbidden: 'Forbidden',
  TooLong: 'Too long',
  TooMany: 'Too many',
  NotSupported: 'Unsupported value',
  Duplicate: 'Duplicate value',
  // kube reports a wrong JSON type as its own error type with the same words as Invalid
  TypeInvalid: 'Invalid value',
  NotFound: 'Not found',
  InternalError: 'Internal error',
};

/** Types whose message shows the offending value (kube omits it for Required, Forbidden and TooLong). */
const showsValue = new Set<FieldError['type']>([
  'Invalid',
  'NotSupported',
  'Duplicate',
  'TooMany',
  'TypeInvalid',
  'NotFound',
]);

function showValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'null';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function formatCauseMessage(e: FieldError): string {
  let text = typeText[e.type];
  if (showsValue.has(e.type)) {
    if (e.valueText !== undefined) text += `: ${e.valueText}`;
    else if (e.value !== undefined) text += `: ${showValue(e.value)}`;
  }
  if (e.detail) text += `: ${e.detail}`;
  return text;
}

export function formatFieldError(e: FieldError): string {
  return `${e.field}: ${formatCauseMessage(e)}`;
}

export const fieldError = {
  required: (field: string, detail?: string): FieldError => ({ type: 'Required', field, detail }),
  invalid: (field: string, value: unknown, detail?: string): FieldError => ({
    type: 'Invalid',
    field,
    value,
    detail,
  }),
  forbidden: (field: string, detail: string): FieldError => ({ type: 'Forbidden', field, detail }),
  tooLong: (field: string, max: number): FieldError => ({
    type: 'TooLong',
    field,
    detail: `may not be more than ${max} bytes`,
  }),
  notSupported: (field: string, value: unknown, allowed: string[]): FieldError => ({
    type: 'NotSupported',
    field,
    value,
    detail: `supported values: ${allowed.map((a) => JSON.stringify(a)).join(', ')}`,
  }),
  duplicate: (field: string, value: unknown): FieldError => ({ type: 'Duplicate', field, value }),
  /** kube v1.32's field.TooMany: `Too many: <actual>: must have at most <max> items` (items even for one) */
  tooMany: (field: string, actual: number, max: number): FieldError => ({
    type: 'TooMany',
    field,
    value: actual,
    detail: `must have at most ${max} items`,
  }),
  typeInvalid: (field: string, value: unknown, detail: string): FieldError => ({
    type: 'TypeInvalid',
    field,
    value,
    detail,
  }),
  /** kube's field.InternalError: `Internal error: <detail>` */
  internal: (field: string, detail: string): FieldError => ({ type: 'InternalError', field, detail }),
};
