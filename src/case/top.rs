//! The top level of a case file: every table read in order into a
//! [`Case`] (`Reader::case`), after the file loading of `read.rs`.

use super::read::*;
use super::types::*;

impl Reader<'_> {
    pub(super) fn case(
        &mut self,
        path: &str,
        root: &DeTable,
        _root_span: Range<usize>,
    ) -> Option<Case> {
        self.keys(root, ROOT_KEYS, "the case file");
        let (title, description, space) = self.heading(path, root);
        let generalized = get(root, "generalized");
        if let Some(g) = generalized {
            self.coords = self.coordinate_names(g);
        }
        let (parameters, param_order) = self.parameters(get(root, "parameters"));
        let scene = self.case_scene(root, space)?;
        let model_node = get(root, "model");
        let space = self.model_space(root, model_node, space);
        let (form, body_names) =
            self.form(root, model_node, scene.is_some(), generalized, space)?;
        self.engine_present = get(root, "engine").is_some();
        let (contacts, contact_names, impacts) =
            self.contacts_and_impacts(root, &scene, &form, &body_names, space);
        // A part of a scene (`meff.mpi`) holds only some of its contacts:
        // claims, sweeps and persons, which name the scene's, are not read.
        let whole = scene.as_ref().is_none_or(|s| s.part.is_none());
        let table = |key: &str| if whole { get(root, key) } else { None };
        let claims = self.claims(table("claim"), &contact_names);
        let sweeps = self.sweeps(table("sweep"), &parameters, &contact_names);
        let persons = self.persons(table("person"), &contact_names);
        let (motion, map) = match &form {
            Form::Robot(r) => self.motion(root, Some(r), path),
            _ => self.motion(root, None, path),
        };
        let verify = get(root, "verify").and_then(|n| self.verify(n));
        let display = get(root, "display").map_or_else(Display::default, |n| self.display(n));
        let document = get(root, "document").map_or_else(Default::default, |n| self.document(n));
        let previous = get(root, "revision").and_then(|n| self.previous(n));
        let engines = get(root, "engine").map_or_else(Default::default, |n| self.engines(n));
        let (large_modes, analysis_path) = self.analysis_table(root);
        let case = Case {
            path: path.to_string(),
            // Filled by the caller (without a copy where it owns the text).
            source: String::new(),
            title,
            description,
            space,
            parameters,
            param_order,
            derived: std::mem::take(&mut self.derived),
            checks: std::mem::take(&mut self.checks),
            form,
            contacts,
            claims,
            sweeps,
            persons,
            impacts,
            motion: motion.map(Box::new),
            map: map.map(Box::new),
            verify,
            large_modes,
            analysis_path,
            display,
            scene,
            engines,
            angles: std::mem::take(&mut self.angles),
            stiffness_from: None,
            document,
            previous,
        };
        if self.diags.is_empty() {
            self.check_sweeps(&case);
            self.check_tolerances(&case);
        }
        Some(case)
    }

    /// `title` (the file's stem when absent), `description` and `space`.
    fn heading(&mut self, path: &str, root: &DeTable) -> (String, String, Space) {
        let title = match get(root, "title") {
            Some(n) => self.string(n, "`title`").unwrap_or_default(),
            None => std::path::Path::new(path)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
        };
        let description = get(root, "description")
            .and_then(|n| self.string(n, "`description`"))
            .unwrap_or_default();
        let space = get(root, "space").map_or(Space::Planar, |node| {
            self.choice(
                node,
                ("space", "space"),
                &[
                    ("line", Space::Line),
                    ("planar", Space::Planar),
                    ("3d", Space::ThreeD),
                    ("3-d", Space::ThreeD),
                    ("3D", Space::ThreeD),
                ],
                3,
            )
            .unwrap_or(Space::Planar)
        });
        (title, description, space)
    }

    /// The `[scene]` table (refused beside tables a scene replaces, and in
    /// a line case), or the scene the columnar reader or the caller gives.
    /// `None`: the case cannot be read further.
    fn case_scene(
        &mut self,
        root: &DeTable,
        space: Space,
    ) -> Option<Option<Box<super::scene::Scene>>> {
        let scene_node = get(root, "scene");
        if let Some(sn) = scene_node {
            for key in ["body", "joint", "contact", "generalized", "constraint"] {
                if let Some(n) = get(root, key) {
                    self.error(
                        Diagnostic::new(
                            header(&n.span()),
                            format!("`{key}` cannot be used with `[scene]`"),
                        )
                        .hint("a scene gives all bodies and contacts; write the others as rows of its files"),
                    );
                }
            }
            if self.diags.is_empty() && space == Space::Line {
                self.error(
                    Diagnostic::new(header(&sn.span()), "a scene is planar or 3-d")
                        .hint("set space = \"planar\" or \"3d\""),
                );
            }
        }
        let scene = match scene_node {
            Some(sn) if self.diags.is_empty() => Some(Box::new(self.scene(sn, space)?)),
            Some(_) => return None,
            None => None,
        };
        let scene = match (self.columnar.take(), self.given_scene.take()) {
            (Some(run), _) => Some(Box::new(self.columnar_scene(&run, space)?)),
            (None, Some(data)) => Some(Box::new(super::scene::Scene {
                span: 0..0,
                files: Vec::new(),
                sha256: Vec::new(),
                data,
                dump: None,
                overlap: None,
                part: None,
                near: None,
                settings: Vec::new(),
            })),
            (None, None) => scene,
        };
        Some(scene)
    }

    /// A `[model]` case is 3-d, and takes no table its model replaces;
    /// the space the case is read in.
    fn model_space(&mut self, root: &DeTable, model_node: Option<&Node>, space: Space) -> Space {
        if model_node.is_some() {
            for key in ["joint", "generalized", "constraint", "scene"] {
                if let Some(n) = get(root, key) {
                    self.error(
                        Diagnostic::new(
                            header(&n.span()),
                            format!("`{key}` cannot be used with `[model]`"),
                        )
                        .hint("a `[model]` case takes its joints from the model file; `[[body]]` tables add free bodies beside it"),
                    );
                }
            }
            if let Some(sn) = get(root, "space")
                && space != Space::ThreeD
            {
                self.error(
                    Diagnostic::new(sn.span(), "a `[model]` case is 3-d")
                        .hint("remove `space` or set it to \"3d\""),
                );
            }
        }
        if model_node.is_some() {
            Space::ThreeD
        } else {
            space
        }
    }

    /// The case's form (a model, a scene's bodies, generalized coordinates
    /// or bodies and joints) and, for bodies and joints, the body names.
    fn form(
        &mut self,
        root: &DeTable,
        model_node: Option<&Node>,
        has_scene: bool,
        generalized: Option<&Node>,
        space: Space,
    ) -> Option<(Form, Vec<String>)> {
        let mut body_names = Vec::new();
        let form = if let Some(mn) = model_node {
            if !self.diags.is_empty() {
                return None;
            }
            let mut robot = self.robot_model(mn)?;
            // Free bodies beside the model (a body region); payloads
            // welded to links.
            robot.bodies = self.bodies(get(root, "body"), Space::ThreeD);
            self.payloads(get(root, "payload"), &mut robot);
            for b in &robot.bodies {
                if robot.robot.tree.body_index(&b.name).is_some() {
                    self.error(
                        Diagnostic::new(
                            b.span.clone(),
                            format!("the model already has a body `{}`", b.name),
                        )
                        .hint("give the case's body another name"),
                    );
                }
            }
            Some(Form::Robot(Box::new(robot)))
        } else if has_scene {
            Some(Form::Bodies {
                bodies: Vec::new(),
                joints: Vec::new(),
            })
        } else if let Some(g) = generalized {
            for key in ["body", "joint"] {
                if let Some(n) = get(root, key) {
                    self.error(
                        Diagnostic::new(
                            header(&n.span()),
                            format!("`[[{key}]]` cannot be used with `[generalized]`"),
                        )
                        .hint("a case is written either with bodies or in generalized coordinates"),
                    );
                }
            }
            self.generalized(g, get(root, "constraint"))
        } else {
            if let Some(n) = get(root, "constraint") {
                self.error(
                    Diagnostic::new(
                        header(&n.span()),
                        "`[[constraint]]` rows belong to the `[generalized]` form",
                    )
                    .hint("between bodies, use `[[joint]]`"),
                );
            }
            let bodies = self.bodies(get(root, "body"), space);
            body_names = bodies.iter().map(|b| b.name.clone()).collect();
            self.body_index = body_names
                .iter()
                .enumerate()
                .map(|(i, n)| (n.clone(), i))
                .collect();
            let joints = self.joints(get(root, "joint"), &bodies, space);
            Some(Form::Bodies { bodies, joints })
        };
        Some((form?, body_names))
    }

    /// The `[[contact]]` tables (none beside a scene), the contact names
    /// claims and sweeps resolve against, and the `[[impact]]` tables.
    fn contacts_and_impacts(
        &mut self,
        root: &DeTable,
        scene: &Option<Box<super::scene::Scene>>,
        form: &Form,
        body_names: &[String],
        space: Space,
    ) -> (Vec<Contact>, Vec<String>, Vec<Impact>) {
        let contacts = if scene.is_some() {
            Vec::new()
        } else {
            self.contacts(get(root, "contact"), form, body_names, space)
        };
        let contact_names: Vec<String> = match scene {
            // Names are only needed to resolve claims and sweeps.
            Some(s) if get(root, "claim").is_some() || get(root, "sweep").is_some() => {
                (0..s.data.n_contacts())
                    .map(|i| s.data.contact_name(i))
                    .collect()
            }
            Some(_) => Vec::new(),
            None => contacts.iter().map(|c| c.name.clone()).collect(),
        };
        let impacts = match (get(root, "impact"), scene) {
            (Some(n), Some(_)) => {
                self.error(
                    Diagnostic::new(header(&n.span()), "`[[impact]]` needs contacts written in the case")
                        .hint("a `[scene]` is analysed for its modes and timestep; write the few contacts of an impact as `[[contact]]` tables"),
                );
                Vec::new()
            }
            (n, _) => self.impacts(n, &contact_names),
        };
        self.impact_index = impacts
            .iter()
            .map(|i| (i.name.clone(), i.contacts.clone(), i.resting.clone()))
            .collect();
        (contacts, contact_names, impacts)
    }

    /// `[analysis]`: the number of modes the large path lists and the path.
    fn analysis_table(&mut self, root: &DeTable) -> (Option<usize>, AnalysisPath) {
        let analysis = get(root, "analysis").and_then(|n| {
            let t = self.table(n, "`[analysis]`")?;
            self.keys(t, ANALYSIS_KEYS, "`[analysis]`");
            Some(t)
        });
        let large_modes = analysis
            .and_then(|t| get(t, "modes"))
            .and_then(|m| self.integer(m, "`modes`", 1..=100));
        let analysis_path = analysis
            .and_then(|t| get(t, "path"))
            .and_then(|node| {
                self.choice(
                    node,
                    ("path", "analysis path"),
                    &[
                        ("auto", AnalysisPath::Auto),
                        ("dense", AnalysisPath::Dense),
                        ("large", AnalysisPath::Large),
                    ],
                    3,
                )
            })
            .unwrap_or_default();
        (large_modes, analysis_path)
    }
}
