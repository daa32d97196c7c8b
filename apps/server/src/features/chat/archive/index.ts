/** Export and import of conversations, and share links (issue 18, points 4 and 5). */
export { registerArchiveRoutes } from './archive.routes';
export { ArchiveService } from './archive.service';
