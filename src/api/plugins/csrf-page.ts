import type { FastifyReply } from 'fastify';

const esc = (t: string) => t.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/**
 * A browser's form that fails the CSRF check outside /api/ gets a 403 page, as the reference's
 * CSRF failure view answers (the API keeps its JSON `detail`): what happened, the reason, and a
 * way back. Standalone HTML (the plugin sits below the web interface).
 */
export function sendCsrfFailurePage(reply: FastifyReply, reason: string): FastifyReply {
  const body = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Invalid form submission · Inventory</title><link rel="stylesheet" href="/static/ui/ui.css"></head>
<body>
<main id="content" class="login">
<h1>Invalid form submission</h1>
<div class="card">
<p>The form was refused: its CSRF check failed (403 Forbidden).</p>
<p>Reload the page you came from and send the form again; if this keeps happening, ask an administrator.</p>
<p>Reason: <strong id="csrf-reason">${esc(reason)}</strong></p>
<p><a href="/">Home</a> · <a href="/login/">Log in</a></p>
</div>
</main>
</body>
</html>
`;
  return reply.code(403).header('content-type', 'text/html; charset=utf-8').header('Cache-Control', 'no-store').send(body);
}
