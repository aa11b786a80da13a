//! A warning about a scene's contact names the contacts file and its row
//! (the planter's duplicated, flipped and far scene contacts were located
//! at `case.toml:1:1`), as a body's warning names the bodies file's row.

use crate::support::evaluate_path;

#[test]
fn a_scene_contacts_warning_names_its_file_and_row() {
    let dir = tempfile::tempdir().unwrap();
    let bodies = "mass,x,y,z,Ixx,Iyy,Izz,Ixy,Ixz,Iyz\n1,0,0,0.05,0.001,0.001,0.001,0,0,0\n1,0,0,0.15,0.001,0.001,0.001,0,0,0\n";
    // Row 3 repeats row 2 (one contact typed twice); row 4's normal pulls
    // body 1 away from its centre.
    let contacts = "body,other,px,py,pz,nx,ny,nz,k\n\
                    0,-1,0,0,0,0,0,1,1e5\n\
                    1,0,0,0,0.1,0,0,1,1e5\n\
                    1,0,0,0,0.1,0,0,1,1e5\n\
                    1,-1,0,0,0.2,0,0,1,1e5\n";
    std::fs::write(dir.path().join("b.csv"), bodies).unwrap();
    std::fs::write(dir.path().join("c.csv"), contacts).unwrap();
    let path = dir.path().join("stack.toml");
    std::fs::write(
        &path,
        "space = \"3d\"\n[scene]\nbodies = \"b.csv\"\ncontacts = \"c.csv\"\n",
    )
    .unwrap();
    let ev = evaluate_path(&path);
    let find = |rule: &str| {
        ev.report
            .model_checks
            .iter()
            .find(|w| w.rule == rule)
            .unwrap_or_else(|| panic!("no {rule}: {:?}", ev.report.model_checks))
            .location
            .clone()
    };
    assert_eq!(find("duplicate_contacts"), "c.csv: contacts row 3");
    assert_eq!(find("normal_away_from_centre"), "c.csv: contacts row 4");
}
