/**
 * An error whose message is meant for the person who made the request. Services throw it;
 * the error handler turns it into the one error envelope.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }

  static badRequest(message: string, details?: unknown) {
    return new AppError(400, 'bad_request', message, details);
  }

  static notFound(message: string) {
    return new AppError(404, 'not_found', message);
  }

  static serviceUnavailable(message: string) {
    return new AppError(503, 'service_unavailable', message);
  }
}
