#!/usr/bin/env python3
"""Writes src/core/registry/help-texts.json: each model field's OPTIONS `help_text` as the
reference sends it, read from the differential recording (../shared/reference/differential).

The wire captures (../shared/reference/wire/<app>.<model>.json) have help_text removed; the
recording keeps it. Endpoints are mapped to model ids through the captures' `endpoint`.
`display` ("Human friendly display value") is common to every model and is declared with the
common fields (src/core/registry/resolve.ts), so it is left out here.

    python3 tools/gen-help-texts.py [../shared/reference]
"""
import glob
import json
import os
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..', 'shared', 'reference')
OUT = os.path.join(os.path.dirname(__file__), '..', 'src', 'core', 'registry', 'help-texts.json')
COMMON = {'display'}


def endpoints():
    out = {}
    for path in glob.glob(os.path.join(ROOT, 'wire', '*.*.json')):
        with open(path) as fh:
            capture = json.load(fh)
        if isinstance(capture, dict) and capture.get('endpoint') and capture.get('model'):
            out[capture['endpoint']] = capture['model']
    return out


def main():
    models = endpoints()
    with open(os.path.join(ROOT, 'differential', 'nautobot-2.4.36.json')) as fh:
        exchanges = json.load(fh)['exchanges']
    texts = {}
    for ex in exchanges:
        request, body = ex['request'], ex['response'].get('body')
        model = models.get(request['path'].split('?')[0])
        if request['method'] != 'OPTIONS' or not model or not isinstance(body, dict):
            continue
        for fields in (body.get('actions') or {}).values():
            for name, meta in fields.items():
                if isinstance(meta, dict) and 'help_text' in meta and name not in COMMON:
                    texts.setdefault(model, {})[name] = meta['help_text']
    with open(OUT, 'w') as fh:
        json.dump({m: dict(sorted(f.items())) for m, f in sorted(texts.items())}, fh, indent=1, ensure_ascii=False)
        fh.write('\n')
    print(f'{sum(len(f) for f in texts.values())} help texts of {len(texts)} models -> {OUT}')


if __name__ == '__main__':
    main()
