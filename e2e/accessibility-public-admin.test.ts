import { accessibilitySuite } from './accessibility.ts';

/** The public pages and the admin's screens (e2e/accessibility.ts). */
accessibilitySuite({ publicPages: true, roles: ['admin'], needs: { shop: true, frozen: true, voided: true } });
