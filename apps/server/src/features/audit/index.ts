export { registerAuditFeature } from './audit.routes';
