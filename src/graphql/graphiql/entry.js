// The GraphiQL page's script, bundled with React by scripts/build-graphiql.mjs (no network use
// beyond this service: the fetcher posts to /api/graphql/ with the browser session).
import React from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import 'graphiql/graphiql.css';

/** The value of a cookie (Django's `csrftoken`), or '' when the browser has none. */
function cookie(name) {
  const found = document.cookie.split(';').map((c) => c.trim()).find((c) => c.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : '';
}

/** Posts each operation to the API with the session cookie and the CSRF header a session's unsafe request needs. */
async function fetcher(params) {
  const response = await fetch('/api/graphql/', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRFToken': cookie('csrftoken') },
    body: JSON.stringify(params),
  });
  return response.json();
}

const search = new URLSearchParams(window.location.search);
const props = { fetcher, defaultEditorToolsVisibility: true };
if (search.get('query')) props.query = search.get('query');
if (search.get('variables')) props.variables = search.get('variables');

createRoot(document.getElementById('graphiql')).render(React.createElement(GraphiQL, props));
