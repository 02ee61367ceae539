#include "compiler/plan/lifted_constants.h"

namespace tally {

namespace {

// Each lifted constant takes an argument word of the kernels, whose block is bounded
// (GpuProgram's argument limit): a filter of many comparisons keeps the rest as constants.
constexpr size_t kMaxLifted = 8;

bool liftable(const Expr& e) {
  if (e.kind != ExprKind::Constant || e.value.null) return false;
  return e.type.is_integer() || e.type.is_datetime();
}

class Lifter {
 public:
  explicit Lifter(size_t first_index) : next_index_(first_index) {}

  // `e` with its compared constants replaced; `e` itself where nothing changed.
  ExprPtr lift(const ExprPtr& e) {
    std::shared_ptr<Expr> copy;
    for (size_t i = 0; i < e->children.size(); ++i) {
      ExprPtr child = lift(e->children[i]);
      if (e->kind == ExprKind::Compare && e->children.size() == 2) {
        const Expr& other = *e->children[1 - i];
        if (liftable(*child) && other.kind != ExprKind::Constant && values.size() < kMaxLifted) {
          child = parameter_for(*child);
        }
      }
      if (child == e->children[i]) continue;
      if (!copy) copy = std::make_shared<Expr>(*e);
      copy->children[i] = std::move(child);
    }
    return copy ? copy : e;
  }

  std::vector<Type> types;
  std::vector<Value> values;

 private:
  ExprPtr parameter_for(const Expr& constant) {
    auto p = std::make_shared<Expr>();
    p->kind = ExprKind::Parameter;
    p->type = constant.type;
    p->index = static_cast<int>(next_index_++);
    p->text = constant.text;
    p->location = constant.location;
    types.push_back(constant.type);
    values.push_back(constant.value);
    return p;
  }

  size_t next_index_;
};

}  // namespace

std::shared_ptr<const LiftedConstants> lift_compared_constants(const BoundSelect& query) {
  if (!query.filter) return nullptr;
  Lifter lifter(query.parameter_types.size());
  ExprPtr filter = lifter.lift(query.filter);
  if (lifter.values.empty()) return nullptr;
  auto lifted = std::make_shared<LiftedConstants>();
  lifted->query = query;
  lifted->query.filter = std::move(filter);
  lifted->query.first_lifted_parameter = static_cast<int>(query.parameter_types.size());
  lifted->query.parameter_types.insert(lifted->query.parameter_types.end(), lifter.types.begin(),
                                       lifter.types.end());
  lifted->values = std::move(lifter.values);
  return lifted;
}

std::vector<Value> lifted_parameters(const BoundSelect& query, std::vector<Value> own,
                                     const LiftedConstants* lifted) {
  if (own.size() != query.parameter_types.size()) return {};
  if (lifted) own.insert(own.end(), lifted->values.begin(), lifted->values.end());
  return own;
}

}  // namespace tally
