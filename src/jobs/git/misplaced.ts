import { existsSync } from 'node:fs';
import path from 'node:path';

/** Folders the reference looks for below `config_contexts/` (scopes, then local contexts). */
const CONTEXT_FOLDERS = ['locations', 'device_types', 'roles', 'platforms', 'cluster_groups', 'clusters', 'tenant_groups', 'tenants', 'tags', 'dynamic_groups', 'device_redundancy_groups', 'devices', 'virtual_machines'];
/** App labels the reference looks for below `export_templates/`. */
const TEMPLATE_APPS = ['circuits', 'dcim', 'extras', 'ipam', 'tenancy', 'users', 'virtualization'];

/** Warnings for content folders put at the repository's root instead of their content folder, as the reference gives them. */
export function misplacedFolders(folder: string, provided: ReadonlySet<string>): { grouping: string; message: string }[] {
  const at = (name: string) => existsSync(path.join(folder, name));
  const out: { grouping: string; message: string }[] = [];
  if (provided.has('extras.configcontext')) {
    for (const name of CONTEXT_FOLDERS.filter(at)) out.push({ grouping: 'config contexts', message: `Found "${name}" directory in the repository root. If this is meant to contain config contexts, it should be moved into a \`config_contexts/\` subdirectory.` });
  }
  if (provided.has('extras.exporttemplate')) {
    for (const name of TEMPLATE_APPS.filter(at)) out.push({ grouping: 'export templates', message: `Found "${name}" directory in the repository root. If this is meant to contain export templates, it should be moved into an \`export_templates/\` subdirectory.` });
  }
  return out;
}
