// cfg.configmap-file-acl's reading of an ACL: upstream's filePermissions.ps1 rule turned into a mode,
// and the probe's JSON parsed (a single rule as an object, as ConvertTo-Json writes a one-item array
// it was not forced to keep).

import { expect } from 'chai';
import { aclMode, parseAcl } from '../../../../lib/catalog/cfg/fileAcl.ts';

const FULL = 2032127;
const READ_EXECUTE = 1179817;

describe('cfg.configmap-file-acl: ACL to mode', () => {
  it('owner and group full control, Users read and execute: 0775 (what demo.go expects)', () => {
    const acl = {
      Owner: 'BUILTIN\\Administrators',
      Group: 'NT AUTHORITY\\SYSTEM',
      Access: [
        { Identity: 'NT AUTHORITY\\SYSTEM', Rights: FULL, Type: 'Allow' },
        { Identity: 'BUILTIN\\Administrators', Rights: FULL, Type: 'Allow' },
        { Identity: 'BUILTIN\\Users', Rights: READ_EXECUTE, Type: 'Allow' },
      ],
    };
    expect(aclMode(acl)).to.equal('0775');
    expect(aclMode({ ...acl, Access: acl.Access.slice(0, 2) })).to.equal('0770');
  });

  it('Deny rules are skipped; a group that has no rule gets 0 (kubernetes#70882 saw -rwx---r-x)', () => {
    const acl = {
      Owner: 'User Manager\\ContainerAdministrator',
      Group: 'User Manager\\None',
      Access: [
        { Identity: 'User Manager\\ContainerAdministrator', Rights: FULL, Type: 'Allow' },
        { Identity: 'BUILTIN\\Users', Rights: READ_EXECUTE, Type: 'Allow' },
        { Identity: 'User Manager\\None', Rights: FULL, Type: 'Deny' },
      ],
    };
    expect(aclMode(acl)).to.equal('0705');
  });

  it('parses the JSON; one rule as an object; says why otherwise', () => {
    const one = parseAcl('{"Owner":"a","Group":"b","Access":{"Identity":"a","Rights":2032127,"Type":"Allow"}}\r\n');
    expect(one).to.deep.equal({ Owner: 'a', Group: 'b', Access: [{ Identity: 'a', Rights: 2032127, Type: 'Allow' }] });
    expect(parseAcl('Path : x')).to.match(/^not JSON/);
    expect(parseAcl('{"Owner":"a"}')).to.equal('no Owner and Group');
    expect(parseAcl('{"Owner":"a","Group":"b","Access":[{"Identity":"a"}]}')).to.equal('a rule without Identity, Rights or Type');
  });
});
