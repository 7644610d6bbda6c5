import { deleteRows } from '../../ops/write/delete.js';
import { persist } from '../../ops/write/persist.js';
import type { AppExtensions } from '../../ops/extensions.js';

/** What a Git repository may own, deleted in this order (contexts before the schemas they name). */
const OWNED_MODELS = ['extras.configcontext', 'extras.configcontextschema', 'extras.exporttemplate', 'extras.graphqlquery'];

/**
 * A deleted Git repository takes what it provided with it, in the delete's transaction (the
 * reference's pre-delete refresh with `delete=True`): the objects it owns are deleted (with
 * their change records), the local context data it set on devices and VMs is cleared, and its
 * jobs (`<slug>.jobs...`) become `installed: false`.
 */
export const gitRepositoryOwnedTable: AppExtensions = {
  'extras.gitrepository': {
    async afterDelete({ services, exec, rc, rows }) {
      const ids = rows.map((row) => row.id);
      for (const name of OWNED_MODELS) {
        const model = services.registry.get(name);
        const owned = (await exec.selectFrom(model.table).selectAll().where('owner_object_id', 'in', ids).execute()).map((r) => services.store.decode(model, r));
        if (owned.length > 0) await deleteRows(services, exec, rc, model, owned);
      }
      for (const name of ['dcim.device', 'virtualization.virtualmachine']) {
        const model = services.registry.get(name);
        const holders = (await exec.selectFrom(model.table).selectAll().where('local_config_context_data_owner_object_id', 'in', ids).execute()).map((r) => services.store.decode(model, r));
        const cleared = { local_config_context_data: null, local_config_context_data_owner_content_type: null, local_config_context_data_owner_object_id: null };
        if (holders.length > 0) await persist(services, exec, rc, model, holders.map((before) => ({ input: cleared, before })), { partial: true, asList: true });
      }
      const jobs = services.registry.get('extras.job');
      for (const row of rows) {
        const prefix = `${String(row.slug)}.jobs`;
        await exec.updateTable(jobs.table).set({ installed: services.dialect.encode('boolean', false) })
          .where((eb) => eb.or([eb('module_name', '=', prefix), eb('module_name', 'like', `${prefix}.%`)])).execute();
      }
    },
  },
};
