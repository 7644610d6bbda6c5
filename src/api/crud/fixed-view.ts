import { MethodNotAllowedError } from '../../core/errors.js';
import { sendJson } from './respond.js';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * An API view that is no model's list or detail (the reference's plain APIView): who may call
 * it, its answers by method (GET answers HEAD too), and the name and description its OPTIONS
 * shows. Every answer carries `Allow`; other methods are a 405.
 */
export type FixedView = {
  allow: string;
  name: string;
  description: string;
  /** Throws the refusal (401/403) for a caller who may not use the view. */
  guard: (req: FastifyRequest) => unknown;
  methods: { GET: (req: FastifyRequest) => Promise<unknown>; PATCH?: (req: FastifyRequest) => Promise<unknown> };
};

export function fixedViewHandler(view: FixedView) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    reply.header('Allow', view.allow);
    await view.guard(req);
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (method === 'OPTIONS') {
      return sendJson(reply, 200, { name: view.name, description: view.description, renders: ['application/json', 'text/html', 'text/csv'], parses: ['application/json', 'text/csv'] });
    }
    const answer = view.methods[method as keyof FixedView['methods']];
    if (!answer) throw new MethodNotAllowedError(req.method, view.allow);
    return sendJson(reply, 200, await answer(req));
  };
}
