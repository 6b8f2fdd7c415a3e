export interface UserInfo {
  name: string;
  uid: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export const anonymousUser: UserInfo = {
  name: 'system:anonymous',
  uid: '',
  groups: ['system:unauthenticated'],
};
