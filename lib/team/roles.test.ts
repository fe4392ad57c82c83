import { describe, expect, it } from 'vitest';
import { groupsInClaim, roleGroupsOf, roleOfGroups } from './roles';

const roles = roleGroupsOf({
  TEAM_ADMIN_GROUPS: 'sms-admins',
  TEAM_SUPPORT_GROUPS: 'sms-support, helpdesk',
  TEAM_VIEWER_GROUPS: 'sms-viewers',
});

describe('a person\u2019s role from their groups', () => {
  it('gives the highest role any of the groups has', () => {
    expect(roleOfGroups(['sms-viewers', 'helpdesk'], roles)).toBe('support');
    expect(roleOfGroups(['sms-viewers', 'sms-admins'], roles)).toBe('admin');
    expect(roleOfGroups(['sms-viewers'], roles)).toBe('viewer');
  });

  it('gives none to someone in none of the configured groups', () => {
    expect(roleOfGroups(['marketing'], roles)).toBeNull();
    expect(roleOfGroups([], roles)).toBeNull();
  });

  it('reads the claim as a list, as one string, or as Keycloak group paths', () => {
    expect(groupsInClaim(['sms-support'])).toEqual(['sms-support']);
    expect(groupsInClaim('sms-support,sms-viewers')).toEqual(['sms-support', 'sms-viewers']);
    expect(roleOfGroups(groupsInClaim(['/org/sms-admins']), roles)).toBe('admin');
    expect(groupsInClaim(undefined)).toEqual([]);
    expect(groupsInClaim([1, null, 'helpdesk'])).toEqual(['helpdesk']);
  });
});
