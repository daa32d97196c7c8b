/** Member accounts, the service every member-facing feature shares (AppServices.members). */
export { MembersService, usernameTaken } from './members.service';
export type { Member } from './members.repository';
