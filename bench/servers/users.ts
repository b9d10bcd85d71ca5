/** The one user both session servers know, and the kernel's `UserService` over it. */
import type { User, UserService } from '@fw/kernel';

export const ALICE: User = { id: 1, email: 'alice@example.test', email_verified: true };

export const USERS: UserService = {
  findById: (id) => (String(id) === '1' ? ALICE : undefined),
  email_verified: (u) => u.email_verified,
  has_2fa: () => false,
  is_admin: () => false,
  roles: () => [],
  permissions: () => [],
};
