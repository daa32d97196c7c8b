/** Query keys of chat rooms; room saves invalidate `admin`. */
export const roomKeys = {
  member: ['aigc', 'rooms'] as const,
  admin: ['aigc', 'admin', 'rooms'] as const,
  models: ['aigc', 'admin', 'rooms', 'models'] as const,
};
