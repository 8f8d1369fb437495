/**
 * A request a service refuses, for a reason its caller can fix or must be
 * told: a code (snake_case) and a message. The edges answer it, each its own
 * way: the HTTP server with the status of its code (statusOf), the CLI as an
 * input error. Services know nothing of HTTP.
 */
export class ServiceRefusal extends Error {
  override readonly name = 'ServiceRefusal';

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
